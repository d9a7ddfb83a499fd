import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** The public pages (no sign-in), composed in app/router.tsx. */
export const authRoutes: RouteObject[] = [
  {
    path: paths.login,
    lazy: async () => ({ Component: (await import('@/features/auth/LoginPage')).LoginPage }),
  },
  {
    path: paths.workos,
    lazy: async () => ({
      Component: (await import('@/features/auth/WorkosRedirectPage')).WorkosRedirectPage,
    }),
  },
];
