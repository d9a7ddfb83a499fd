import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const getStartedRoutes: RouteObject[] = [
  {
    // `get-started/*`: every path under it is the checklist.
    path: `${paths.getStarted}/*`,
    ...lazyPage(() => import('@/features/get-started/GetStartedPage'), 'GetStartedPage'),
  },
];
