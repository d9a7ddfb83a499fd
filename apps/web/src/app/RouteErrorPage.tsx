import { isRouteErrorResponse, useRouteError } from 'react-router';

import { NotFoundPage } from '@/app/NotFoundPage';
import { LoggedOutScreen } from '@/app/shell/LoggedOutScreen';
import { DocumentTitle } from '@/components/document-title';
import { ErrorState } from '@/components/error-state';
import { Page } from '@/components/page';
import { useLinks } from '@/hooks/use-links';
import { isApiError } from '@/lib/api/errors';

/**
 * The generic error screen: a 404 shows the not-found message, the
 * unauthorized error the logged-out message (clearing the token after 3 s), anything else the
 * unknown-error text, with a link to support when this server has a support address.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { supportMailto } = useLinks();

  if (
    (isRouteErrorResponse(error) && error.status === 404) ||
    (isApiError(error) && error.kind === 'notFound')
  ) {
    return <NotFoundPage />;
  }
  if (isApiError(error) && error.kind === 'unauthorized') return <LoggedOutScreen />;

  console.error(error);
  return (
    <Page className="min-h-svh max-w-xl justify-center">
      <DocumentTitle title="Error" />
      <ErrorState
        title="Oops! An unknown error occurred loading the app."
        message={
          <>
            Please reach out if you need any help.
            {supportMailto ? (
              <>
                {' '}
                <a href={supportMailto} className="text-primary hover:underline">
                  Contact support
                </a>
              </>
            ) : null}
          </>
        }
        onRetry={() => window.location.reload()}
      />
    </Page>
  );
}
