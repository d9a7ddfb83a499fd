import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const usageRoutes: RouteObject[] = [
  {
    path: paths.usage,
    lazy: async () => ({ Component: (await import('@/features/usage/UsagePage')).UsagePage }),
  },
];
