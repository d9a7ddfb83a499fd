import { Navigate, type RouteObject, useLocation, useParams } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** `/account` goes to setup/credentials keeping the query string. */
function AccountRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: paths.setupCredentials, search }} replace />;
}

/** The short `/setup/*` form goes to its `/settings/setup/*` page. */
function SetupRedirect() {
  const { search } = useLocation();
  const rest = useParams()['*'];
  return <Navigate to={{ pathname: rest ? `${paths.setup}/${rest}` : paths.setup, search }} replace />;
}

/** Signed-in routes of this area (composed in app/router.tsx). */
export const setupRoutes: RouteObject[] = [
  {
    path: paths.setup,
    ...lazyPage(() => import('@/features/setup/CloudSetupPage'), 'CloudSetupPage'),
  },
  {
    path: paths.setupCredentials,
    ...lazyPage(() => import('@/features/setup/CloudSetupPage'), 'CloudSetupPage'),
  },
  { path: paths.account, Component: AccountRedirect },
  { path: '/setup/*', Component: SetupRedirect },
];
