import { Navigate, type RouteObject, useLocation } from 'react-router';

import { prefetchDashboard } from '@/features/clusters/dashboard/prefetch';
import { queryClient } from '@/lib/api/query-client';
import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** `/clusters/{id}/infrastructure` (where old account links land) shows the Instances tab. */
function InfrastructureRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '../instances', search }} relative="path" replace />;
}

const cluster = () => import('@/features/clusters/cluster/ClusterDetailsPage');

/** Signed-in routes of this area (composed in app/router.tsx). */
export const clustersRoutes: RouteObject[] = [
  {
    path: paths.clusters,
    ...lazyPage(() => import('@/features/clusters/dashboard/ClustersPage'), 'ClustersPage'),
    // Beside the page's code: its clusters are asked for once the shell's first answers are in.
    loader: ({ request }) => {
      void prefetchDashboard(queryClient, new URL(request.url));
      return null;
    },
    shouldRevalidate: () => false,
  },
  {
    path: paths.cluster,
    ...lazyPage(cluster, 'ClusterDetailsPage'),
    children: [
      {
        index: true,
        ...lazyPage(() => import('@/features/clusters/cluster/overview-tab'), 'ClusterOverviewTab'),
      },
      {
        path: 'instances',
        ...lazyPage(() => import('@/features/clusters/cluster/instances-tab'), 'ClusterInstancesTab'),
      },
      {
        path: 'logs',
        ...lazyPage(() => import('@/features/clusters/cluster/logs-tab'), 'ClusterLogsTab'),
      },
      {
        path: 'metrics',
        ...lazyPage(() => import('@/features/clusters/cluster/metrics-tab'), 'ClusterMetricsTab'),
      },
      {
        path: 'analytics',
        ...lazyPage(() => import('@/features/clusters/cluster/analytics-tab'), 'ClusterAnalyticsTab'),
      },
      {
        path: 'events',
        ...lazyPage(() => import('@/features/clusters/cluster/events-tab'), 'ClusterEventsTab'),
      },
      { path: 'infrastructure', element: <InfrastructureRedirect /> },
    ],
  },
];
