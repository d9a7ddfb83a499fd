import { Navigate, Outlet, useLocation } from 'react-router';

import { LoggedOutScreen } from '@/app/shell/LoggedOutScreen';
import { useSession } from '@/lib/api/session';
import { paths } from '@/lib/paths';
import { loginPathFor } from '@/lib/return-to';

/** Everything behind sign-in: no token goes to login, carrying the path plus query as return-to. */
export function RequireAuth() {
  const { token, expired, loggedOut } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to={loggedOut ? paths.login : loginPathFor(location)} replace />;
  if (expired) return <LoggedOutScreen />;
  return <Outlet />;
}
