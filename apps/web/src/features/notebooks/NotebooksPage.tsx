import { NotebookPenIcon } from 'lucide-react';

import { ErrorState } from '@/components/error-state';
import { GuideEmptyState } from '@/components/guide-empty-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { ScopePicker } from '@/components/scope-picker';
import { useNotebooksPaginateQuery } from '@/data/clusters/notebooks-paginate-query';
import { NewNotebookButton } from '@/features/notebooks/new-notebook-dialog';
import { NotebooksTable } from '@/features/notebooks/notebooks-table';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage } from '@/lib/api/errors';
import { dashboardPollMs } from '@/lib/clusters/states';
import { usePageMeta } from '@/lib/page-meta';
import { scopeQuery, useScope } from '@/lib/scopes';

/** The tag that makes a cluster a notebook cluster (apps/server clusters/queries.ts NOTEBOOK_TAGS). */
export const NOTEBOOK_TAG = { key: 'cumulus-cluster-type', value: 'notebook' } as const;

export const NOTEBOOK_SNIPPET = `cumulus notebook start --name my-notebook --sync
# prints the address of its JupyterLab; later:
cumulus notebook stop my-notebook   # brings changed files back`;

/**
 * Notebooks (sidebar entry for users with shouldSeeNotebookPage: whoever can start a notebook): the notebook clusters of the
 * current scope (`clusters/paginate-notebook`), paged in the URL, with Open and Stop.
 */
export function NotebooksPage() {
  usePageMeta({ title: 'Notebooks', breadcrumbs: [{ label: 'Notebooks' }] });
  const { scope, error: scopeError } = useScope();
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const notebooks = useNotebooksPaginateQuery(
    {
      query: scope ? { ...scopeQuery(scope), offset: page * pageSize, limit: pageSize } : null,
    },
    { refetchInterval: (query) => dashboardPollMs(query.state.data?.items ?? []) },
  );
  const failure = notebooks.error ?? (scope ? null : scopeError);
  const total = notebooks.data?.count ?? 0;

  let body: React.ReactNode;
  if (failure) {
    body = (
      <ErrorState
        title="Could not load notebooks"
        message={errorMessage(failure)}
        onRetry={() => void notebooks.refetch()}
        retrying={notebooks.isFetching}
      />
    );
  } else if (notebooks.isPending) {
    body = <LoadingSkeleton variant="table" columns={5} />;
  } else if (total === 0 && page === 0) {
    body = (
      <GuideEmptyState
        slot="notebooks-empty"
        icon={NotebookPenIcon}
        title={`No notebook clusters in ${scope?.name ?? 'this scope'} yet`}
        description={
          <>
            A notebook cluster is a cluster tagged{' '}
            <code className="text-foreground font-mono text-xs">
              {NOTEBOOK_TAG.key}: {NOTEBOOK_TAG.value}
            </code>
            running Jupyter next to its Dask cluster. Start one with New notebook, or from a terminal with{' '}
            <code className="text-foreground font-mono text-xs">cumulus notebook start</code>.
          </>
        }
        steps={[
          {
            text: 'Start a notebook from your terminal, with this directory synced',
            code: NOTEBOOK_SNIPPET,
            label: 'Terminal',
            copyLabel: 'Copy notebook snippet',
          },
        ]}
      />
    );
  } else {
    body = (
      <NotebooksTable
        notebooks={notebooks.data?.items ?? []}
        total={total}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        loading={notebooks.isPlaceholderData && notebooks.isFetching}
        empty="No notebook clusters on this page."
      />
    );
  }

  return (
    <Page>
      <PageHeader
        title="Notebooks"
        description={scope ? `Notebook clusters in ${scope.name}` : 'Your notebook clusters'}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <ScopePicker className="w-60" />
            <NewNotebookButton />
          </div>
        }
      />
      {body}
    </Page>
  );
}
