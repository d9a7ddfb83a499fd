import * as React from 'react';

import { AuthCard } from '@/components/auth-card';
import { SSO_LOGIN_URL } from '@/lib/paths';

/** /workos sends the browser to the server's single-sign-on login path. */
export function WorkosRedirectPage() {
  React.useEffect(() => {
    window.location.replace(SSO_LOGIN_URL);
  }, []);
  return <AuthCard title="Redirecting to single sign-on…" pageTitle="Single sign-on" />;
}
