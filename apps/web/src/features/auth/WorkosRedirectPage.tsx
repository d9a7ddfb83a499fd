import * as React from 'react';

import { AuthCard } from '@/components/auth-card';
import { SSO_LOGIN_URL } from '@/lib/paths';

/** /workos sends the browser to the server's single-sign-on login path (with `email`, if given). */
export function WorkosRedirectPage() {
  // A work email (from the login page) names the organization whose own connection signs it in.
  const email = new URLSearchParams(window.location.search).get('email');
  React.useEffect(() => {
    window.location.replace(email ? `${SSO_LOGIN_URL}?email=${encodeURIComponent(email)}` : SSO_LOGIN_URL);
  }, [email]);
  return <AuthCard title="Redirecting to single sign-on…" pageTitle="Single sign-on" />;
}
