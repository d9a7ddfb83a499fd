import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const getStartedRoutes: RouteObject[] = [
  {
    path: paths.getStarted,
    lazy: async () => ({ Component: (await import('@/features/get-started/GetStartedPage')).GetStartedPage }),
  },
];
