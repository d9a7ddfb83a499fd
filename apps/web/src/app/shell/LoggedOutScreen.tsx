import { useQueryClient } from '@tanstack/react-query';
import { LogOutIcon } from 'lucide-react';
import * as React from 'react';
import { useLocation, useNavigate } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import { EmptyState } from '@/components/empty-state';
import { Page } from '@/components/page';
import { ERROR_MESSAGES } from '@/lib/api/errors';
import { session } from '@/lib/api/session';
import { loginPathFor } from '@/lib/return-to';

/** How long the logged-out message shows before the token is cleared (section 9). */
export const LOGGED_OUT_REDIRECT_MS = 3_000;

/** The server no longer accepts the session: say so, then after 3 s forget it and go to login. */
export function LoggedOutScreen() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const target = React.useRef(loginPathFor(location));

  React.useEffect(() => {
    const timer = window.setTimeout(() => {
      session.clear();
      queryClient.clear();
      navigate(target.current, { replace: true });
    }, LOGGED_OUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, queryClient]);

  return (
    <Page className="min-h-svh max-w-xl justify-center">
      <DocumentTitle title="Logged out" />
      <EmptyState icon={LogOutIcon} title={ERROR_MESSAGES.unauthorized} />
    </Page>
  );
}
