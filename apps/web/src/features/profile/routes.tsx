import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const profileRoutes: RouteObject[] = [
  {
    path: paths.profile,
    lazy: async () => ({ Component: (await import('@/features/profile/ProfilePage')).ProfilePage }),
  },
];
