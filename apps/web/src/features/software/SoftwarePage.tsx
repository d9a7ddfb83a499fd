import { PackageIcon, PlusIcon, SearchXIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { ScopePicker } from '@/components/scope-picker';
import { Button } from '@/components/ui/button';
import { useAliasesQuery } from '@/data/software/aliases-query';
import { AliasesTable } from '@/features/software/aliases-table';
import { CreateEnvironmentDialog } from '@/features/software/create-environment-dialog';
import { aliasesQuery, DEFAULT_FILTERS, useSoftwareSearch } from '@/features/software/search-params';
import { SoftwareFilters } from '@/features/software/software-filters';
import { errorMessage } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { type Scope, scopeQuery, useScope } from '@/lib/scopes';
import { useWorkspace } from '@/lib/workspace';

/** While a build on the page runs, the list refreshes (build poll: 2 s). */
const BUILDING_POLL_MS = 2_000;

const scopeLabel = (scope: Scope) => (scope.type === 'compound' ? 'all your workspaces' : scope.name);

/** Software Environments (`/software`): the environments of the picked scope, filtered from the URL. */
export function SoftwarePage() {
  usePageMeta({ title: 'Software Environments', breadcrumbs: [{ label: 'Software Environments' }] });
  const { workspace } = useWorkspace();
  const { scope, error: scopeError } = useScope();
  const { search, setPage, setPageSize, setFilters, setOrder } = useSoftwareSearch();
  const [creating, setCreating] = React.useState(false);
  const aliases = useAliasesQuery(
    { query: scope ? aliasesQuery(search, scopeQuery(scope)) : null },
    {
      refetchInterval: (query) =>
        (query.state.data?.items ?? []).some((a) => a.status === 'queued' || a.status === 'building')
          ? BUILDING_POLL_MS
          : false,
    },
  );
  const failure = aliases.error ?? (scope ? null : scopeError);
  const rows = aliases.data?.items ?? [];
  const total = aliases.data?.count ?? 0;
  const none = aliases.isSuccess && total === 0 && search.page === 0;
  const onlyDefaultFilters = JSON.stringify(search.filters) === JSON.stringify(DEFAULT_FILTERS);

  return (
    <Page>
      <PageHeader
        title="Software Environments"
        description={scope ? `Environments in ${scopeLabel(scope)}` : 'Environments your clusters run with'}
        actions={
          <>
            <ScopePicker className="w-60" />
            {workspace ? (
              <Button onClick={() => setCreating(true)}>
                <PlusIcon />
                Create environment
              </Button>
            ) : null}
          </>
        }
      />
      <SoftwareFilters filters={search.filters} onChange={setFilters} problems={search.problems} />
      {failure ? (
        <ErrorState
          title="Could not load software environments"
          message={errorMessage(failure)}
          onRetry={() => void aliases.refetch()}
          retrying={aliases.isFetching}
        />
      ) : aliases.isPending ? (
        <LoadingSkeleton variant="table" columns={6} />
      ) : none ? (
        <EmptyState
          icon={PackageIcon}
          title="No software environments"
          description={
            !onlyDefaultFilters
              ? 'None match these filters. Package-synced environments are hidden unless you filter package_sync:True.'
              : 'Clusters created from Python sync your local packages into one; or create one from requirements.'
          }
          action={
            <Button asChild variant="outline" size="sm">
              <Link to={paths.getStarted}>Get started</Link>
            </Button>
          }
        />
      ) : (
        <AliasesTable
          aliases={rows}
          total={total}
          page={search.page}
          pageSize={search.pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
          order={search}
          onOrder={setOrder}
          loading={aliases.isPlaceholderData && aliases.isFetching}
          showWorkspace={scope?.type !== 'account'}
          empty={
            <EmptyState icon={SearchXIcon} title="No environments on this page" className="border-0 py-6" />
          }
        />
      )}
      {workspace ? (
        <CreateEnvironmentDialog open={creating} onOpenChange={setCreating} workspace={workspace} />
      ) : null}
    </Page>
  );
}
