import { FileQuestionIcon } from 'lucide-react';
import { Link } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import { EmptyState } from '@/components/empty-state';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';

/** The not-found screen; `inShell` when the signed-in shell (sidebar, top bar) is around it. */
export function NotFoundPage({ inShell = false }: { inShell?: boolean }) {
  return (
    <Page className={inShell ? 'max-w-xl' : 'min-h-svh max-w-xl justify-center'}>
      <DocumentTitle title="Not found" />
      <EmptyState
        icon={FileQuestionIcon}
        title="404: Could not find that page or resource"
        action={
          <Button asChild variant="outline" size="sm">
            <Link to={paths.root}>Go home</Link>
          </Button>
        }
      />
    </Page>
  );
}
