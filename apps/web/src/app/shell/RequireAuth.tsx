import { Navigate, Outlet, useLocation } from 'react-router';

import { paths } from '@/app/paths';
import { loginPathFor } from '@/app/return-to';
import { LoggedOutScreen } from '@/app/shell/LoggedOutScreen';
import { useSession } from '@/lib/api/session';

/** Everything behind sign-in: no token goes to login, carrying the path plus query as return-to. */
export function RequireAuth() {
  const { token, expired, loggedOut } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loggedOut ? paths.login : loginPathFor(location)} replace />;
  if (expired) return <LoggedOutScreen />;
  return <Outlet />;
}
