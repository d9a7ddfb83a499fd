import { Navigate, type RouteObject, useLocation } from 'react-router';

import { paths } from '@/app/paths';

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
    lazy: async () => ({
      Component: (await import('@/features/clusters/dashboard/ClustersPage')).ClustersPage,
    }),
  },
  {
    path: paths.cluster,
    lazy: async () => ({ Component: (await cluster()).ClusterDetailsPage }),
    children: [
      {
        index: true,
        lazy: async () => ({
          Component: (await import('@/features/clusters/cluster/overview-tab')).ClusterOverviewTab,
        }),
      },
      {
        path: 'instances',
        lazy: async () => ({
          Component: (await import('@/features/clusters/cluster/instances-tab')).ClusterInstancesTab,
        }),
      },
      {
        path: 'logs',
        lazy: async () => ({
          Component: (await import('@/features/clusters/cluster/logs-tab')).ClusterLogsTab,
        }),
      },
      {
        path: 'events',
        lazy: async () => ({
          Component: (await import('@/features/clusters/cluster/events-tab')).ClusterEventsTab,
        }),
      },
      { path: 'infrastructure', element: <InfrastructureRedirect /> },
    ],
  },
];
