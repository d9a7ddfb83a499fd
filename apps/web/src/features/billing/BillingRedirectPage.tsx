import { Navigate } from 'react-router';

import { useSession } from '@/lib/api/session';
import { paths } from '@/lib/paths';
import { STORAGE_KEYS, writeStored } from '@/lib/storage';

/** The billing redirect screen: signed in goes to billing; otherwise remember to, and sign in first. */
export function BillingRedirectPage() {
  const { token } = useSession();
  if (token) return <Navigate to={paths.billing} replace />;
  writeStored(STORAGE_KEYS.upgrade, 'true');
  return <Navigate to={paths.login} replace />;
}
