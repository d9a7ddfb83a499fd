import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const clustersRoutes: RouteObject[] = [
  {
    path: paths.clusters,
    lazy: async () => ({ Component: (await import('@/features/clusters/ClustersPage')).ClustersPage }),
  },
];
