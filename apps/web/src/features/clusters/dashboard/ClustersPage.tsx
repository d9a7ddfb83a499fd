import { PlusIcon, SearchXIcon } from 'lucide-react';
import * as React from 'react';

import { usePageMeta } from '@/app/page-meta';
import { useWorkspace } from '@/app/workspace';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { Button } from '@/components/ui/button';
import { useClustersPage } from '@/features/clusters/api';
import { ClusterFilters } from '@/features/clusters/dashboard/cluster-filters';
import { ClustersEmpty } from '@/features/clusters/dashboard/clusters-empty';
import { ClustersTable } from '@/features/clusters/dashboard/clusters-table';
import { CreateClusterDialog } from '@/features/clusters/dashboard/create-cluster-dialog';
import { paginateQuery, useDashboardSearch } from '@/features/clusters/dashboard/search-params';
import { errorMessage } from '@/lib/api/errors';

/** The Dashboard (`/clusters`): the workspace's clusters, server-paginated, filtered from the URL. */
export function ClustersPage() {
  usePageMeta({ title: 'Dashboard', breadcrumbs: [{ label: 'Dashboard' }] });
  const { workspace } = useWorkspace();
  const { search, setPage, setPageSize, setFilters, setOrder } = useDashboardSearch();
  const [creating, setCreating] = React.useState(false);
  const clusters = useClustersPage(paginateQuery(search, { account: workspace?.slug }));

  const filtered = search.filters.length > 0;
  const rows = clusters.data?.items ?? [];
  const total = clusters.data?.count ?? 0;
  const nothingYet = clusters.isSuccess && total === 0 && !filtered && search.page === 0;
  const openCreate = workspace ? () => setCreating(true) : undefined;

  return (
    <Page>
      <PageHeader
        title="Dashboard"
        description={workspace ? `Clusters in ${workspace.name}` : 'You are not a member of any workspace.'}
        actions={
          openCreate ? (
            <Button onClick={openCreate}>
              <PlusIcon />
              Create cluster
            </Button>
          ) : null
        }
      />
      {clusters.isError ? (
        <ErrorState
          title="Could not load clusters"
          message={errorMessage(clusters.error)}
          onRetry={() => void clusters.refetch()}
          retrying={clusters.isFetching}
        />
      ) : clusters.isPending ? (
        <LoadingSkeleton variant="table" columns={6} />
      ) : nothingYet ? (
        <ClustersEmpty workspace={workspace?.name ?? 'this workspace'} onCreate={openCreate} />
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
            showWorkspace={false}
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
