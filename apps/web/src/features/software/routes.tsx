import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const softwareRoutes: RouteObject[] = [
  {
    path: paths.software,
    ...lazyPage(() => import('@/features/software/SoftwarePage'), 'SoftwarePage'),
  },
];
