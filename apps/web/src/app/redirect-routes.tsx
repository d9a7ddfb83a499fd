import { generatePath, Navigate, type RouteObject, useParams } from 'react-router';

import { paths } from '@/lib/paths';
import { ACCOUNT_PARAM } from '@/lib/workspace';

/** Old account-prefixed links: the account moves to the query. */
function AccountScopedRedirect({ to }: { to: (params: Record<string, string>) => string }) {
  const params = useParams() as Record<string, string>;
  const search = new URLSearchParams({ [ACCOUNT_PARAM]: params.account ?? '' });
  return <Navigate to={{ pathname: to(params), search: `?${search}` }} replace />;
}

const infrastructure = (params: Record<string, string>) =>
  generatePath(paths.clusterInfrastructure, { clusterId: params.clusterId ?? '' });

export const redirectRoutes: RouteObject[] = [
  {
    path: '/:account/clusters/:clusterId/details',
    element: <AccountScopedRedirect to={infrastructure} />,
  },
  {
    path: '/:account/clusters/:clusterId/infrastructure',
    element: <AccountScopedRedirect to={infrastructure} />,
  },
  {
    path: '/:account/settings/setup/update-backend-options',
    element: <AccountScopedRedirect to={() => paths.setupCredentials} />,
  },
  { path: '/:account/account', element: <AccountScopedRedirect to={() => paths.setup} /> },
];
