import { PlusIcon, SearchXIcon } from 'lucide-react';
import * as React from 'react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { Button } from '@/components/ui/button';
import { useClustersPaginateQuery } from '@/data/clusters/clusters-paginate-query';
import { ClusterFilters } from '@/features/clusters/dashboard/cluster-filters';
import { ClustersEmpty } from '@/features/clusters/dashboard/clusters-empty';
import { ClustersTable } from '@/features/clusters/dashboard/clusters-table';
import { CreateClusterDialog } from '@/features/clusters/dashboard/create-cluster-dialog';
import { paginateQuery, useDashboardSearch } from '@/features/clusters/dashboard/search-params';
import { dashboardPollMs } from '@/features/clusters/states';
import { type Scope, ScopePicker, scopeQuery, useScope } from '@/features/scopes';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { useWorkspace } from '@/lib/workspace';

/** "Acme", "everything you can see", "clusters ada created". */
function scopeLabel(scope: Scope): string {
  if (scope.type === 'compound') return 'all your workspaces';
  if (scope.type === 'user') return `all your workspaces, created by ${scope.name}`;
  return scope.name;
}

/**
 * The Dashboard (`/clusters`): the clusters of the picked scope (the current workspace until another
 * is picked), server-paginated, filtered and ordered from the URL.
 */
export function ClustersPage() {
  usePageMeta({ title: 'Dashboard', breadcrumbs: [{ label: 'Dashboard' }] });
  const { workspace } = useWorkspace();
  const { scope, error: scopeError } = useScope();
  const { search, setPage, setPageSize, setFilters, setOrder } = useDashboardSearch();
  const [creating, setCreating] = React.useState(false);
  // Refreshed every few seconds while a cluster on the page is changing.
  const clusters = useClustersPaginateQuery(
    { query: scope ? paginateQuery(search, scopeQuery(scope)) : null },
    { refetchInterval: (query) => dashboardPollMs(query.state.data?.items ?? []) },
  );
  const failure = clusters.error ?? (scope ? null : scopeError);

  const filtered = search.filters.length > 0;
  const rows = clusters.data?.items ?? [];
  const total = clusters.data?.count ?? 0;
  const nothingYet = clusters.isSuccess && total === 0 && !filtered && search.page === 0;
  const openCreate = workspace ? () => setCreating(true) : undefined;

  return (
    <Page>
      <PageHeader
        title="Dashboard"
        description={scope ? `Clusters in ${scopeLabel(scope)}` : 'Your clusters'}
        actions={
          <>
            <ScopePicker className="w-60" />
            {openCreate ? (
              <Button onClick={openCreate}>
                <PlusIcon />
                Create cluster
              </Button>
            ) : null}
          </>
        }
      />
      {failure ? (
        <ErrorState
          title="Could not load clusters"
          message={errorMessage(failure)}
          onRetry={() => void clusters.refetch()}
          retrying={clusters.isFetching}
        />
      ) : clusters.isPending ? (
        <LoadingSkeleton variant="table" columns={6} />
      ) : nothingYet ? (
        <ClustersEmpty scope={scope ? scopeLabel(scope) : 'this workspace'} onCreate={openCreate} />
      ) : (
        <>
          <ClusterFilters filters={search.filters} onChange={setFilters} problems={search.problems} />
          <ClustersTable
            clusters={rows}
            total={total}
            page={search.page}
            pageSize={search.pageSize}
            onPageChange={setPage}
            onPageSizeChange={setPageSize}
            order={search}
            onOrder={setOrder}
            // Dim the rows while another page or filter loads, not on every background refresh.
            loading={clusters.isPlaceholderData && clusters.isFetching}
            showWorkspace={scope?.type !== 'account'}
            empty={
              <EmptyState
                icon={SearchXIcon}
                title={filtered ? 'No clusters match these filters' : 'No clusters on this page'}
                description={filtered ? 'Change or clear the filters to see more.' : undefined}
                action={
                  filtered ? (
                    <Button variant="outline" size="sm" onClick={() => setFilters([])}>
                      Clear filters
                    </Button>
                  ) : (
                    <Button variant="outline" size="sm" onClick={() => setPage(0)}>
                      First page
                    </Button>
                  )
                }
                className="border-0 py-6"
              />
            }
          />
        </>
      )}
      {workspace ? (
        <CreateClusterDialog open={creating} onOpenChange={setCreating} workspace={workspace} />
      ) : null}
    </Page>
  );
}
