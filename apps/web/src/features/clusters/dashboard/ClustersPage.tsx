import { SearchXIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { CreateClusterButton, useCreateTarget } from '@/components/clusters/create-cluster-button';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { JobsList } from '@/components/jobs/jobs-list';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { ScopePicker } from '@/components/scope-picker';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useClustersPaginateQuery } from '@/data/clusters/clusters-paginate-query';
import { ClusterFilters } from '@/features/clusters/dashboard/cluster-filters';
import { ClustersEmpty } from '@/features/clusters/dashboard/clusters-empty';
import { ClustersTable } from '@/features/clusters/dashboard/clusters-table';
import {
  type DashboardTab,
  paginateQuery,
  readDashboardTab,
  useDashboardSearch,
  writeDashboardTab,
} from '@/features/clusters/dashboard/search-params';
import { errorMessage } from '@/lib/api/errors';
import { dashboardPollMs } from '@/lib/clusters/states';
import { usePageMeta } from '@/lib/page-meta';
import { type Scope, scopeQuery, useScope } from '@/lib/scopes';

/** "Acme", "everything you can see", "clusters ada created". */
function scopeLabel(scope: Scope): string {
  if (scope.type === 'compound') return 'all your workspaces';
  if (scope.type === 'user') return `all your workspaces, created by ${scope.name}`;
  return scope.name;
}

/**
 * The Dashboard (`/clusters`): the clusters of the picked scope (the current workspace until another
 * is picked), server-paginated, filtered and ordered from the URL; and, on its Jobs tab, the batch
 * jobs of that workspace (of every workspace the user reads when the scope is not one workspace).
 */
export function ClustersPage() {
  usePageMeta({ title: 'Dashboard', breadcrumbs: [{ label: 'Dashboard' }] });
  const { scope, error: scopeError } = useScope();
  const [params, setParams] = useSearchParams();
  const tab = readDashboardTab(params);
  const oneWorkspace = scope?.type === 'account' ? scope : null;
  // Why Create cluster is unavailable, in words on the page (not only in its tooltip).
  const cannotCreate = useCreateTarget().reason;

  return (
    <Page>
      <PageHeader
        title="Dashboard"
        description={
          !scope
            ? 'Your clusters and batch jobs'
            : tab === 'jobs'
              ? `Batch jobs in ${oneWorkspace ? oneWorkspace.name : 'all your workspaces'}`
              : `Clusters in ${scopeLabel(scope)}`
        }
        actions={
          <>
            <ScopePicker className="w-60" />
            <CreateClusterButton />
          </>
        }
      />
      {cannotCreate ? (
        <p role="note" className="text-muted-foreground -mt-2 text-sm">
          {cannotCreate}
        </p>
      ) : null}
      <Tabs
        value={tab}
        onValueChange={(next) => setParams((current) => writeDashboardTab(current, next as DashboardTab))}
        className="gap-4"
      >
        <TabsList>
          <TabsTrigger value="clusters" className="px-4">
            Clusters
          </TabsTrigger>
          <TabsTrigger value="jobs" className="px-4">
            Jobs
          </TabsTrigger>
        </TabsList>
        <TabsContent value="clusters" className="flex flex-col gap-6">
          <ClustersTab scope={scope} scopeError={scopeError} />
        </TabsContent>
        <TabsContent value="jobs">
          <JobsList
            workspace={scope ? (oneWorkspace?.slug ?? undefined) : null}
            scopeLabel={oneWorkspace ? oneWorkspace.name : 'your workspaces'}
            showWorkspace={!oneWorkspace}
            scopeError={scopeError}
          />
        </TabsContent>
      </Tabs>
    </Page>
  );
}

type ClustersTabProps = { scope: Scope | null; scopeError: Error | null };

/** The clusters of the scope, or how to start one. */
function ClustersTab({ scope, scopeError }: ClustersTabProps) {
  const { search, setPage, setPageSize, setFilters, setOrder } = useDashboardSearch();
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

  if (failure)
    return (
      <ErrorState
        title="Could not load clusters"
        message={errorMessage(failure)}
        onRetry={() => void clusters.refetch()}
        retrying={clusters.isFetching}
      />
    );
  if (clusters.isPending) return <LoadingSkeleton variant="table" columns={6} />;
  if (nothingYet)
    return (
      <ClustersEmpty
        scope={scope ? scopeLabel(scope) : 'this workspace'}
        action={<CreateClusterButton className="mt-1" />}
      />
    );
  return (
    <>
      <ClusterFilters
        filters={search.filters}
        tagScope={scopeQuery(scope)}
        onChange={setFilters}
        problems={search.problems}
      />
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
  );
}
