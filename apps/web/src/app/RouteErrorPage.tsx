import { isRouteErrorResponse, useRouteError } from 'react-router';

import { NotFoundPage } from '@/app/NotFoundPage';
import { ErrorState } from '@/components/error-state';
import { Page } from '@/components/page';

/** Generic error screen (spec/console.md section 2); the unauthorized case arrives with the data layer. */
export function RouteErrorPage() {
  const error = useRouteError();

  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundPage />;
  }

  console.error(error);
  return (
    <Page className="min-h-svh max-w-xl justify-center">
      <title>Error · Cumulus</title>
      <ErrorState
        title="Oops! An unknown error occurred loading the app."
        message="Please reach out if you need any help."
        onRetry={() => window.location.reload()}
      />
    </Page>
  );
}
