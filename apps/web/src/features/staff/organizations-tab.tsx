import { Building2Icon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { TimeAgoCell } from '@/components/clusters/cluster-cells';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useStaffOrganizationSearchQuery } from '@/data/scopes/staff-organization-search-query';
import { type StaffOrganization, useStaffOrganizationsQuery } from '@/data/staff/staff-organizations-query';
import { SearchBox, useSearchText } from '@/features/staff/search-box';
import { SEARCH_PARAM } from '@/features/staff/search-params';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage } from '@/lib/api/errors';
import { paths } from '@/lib/paths';
import { organizationScope, pickScope } from '@/lib/scopes';

const SUGGESTIONS = 'staff-organization-names';
const limit = (value: number | null) => (value === null ? 'No limit' : String(value));

/** Organizations: every one on the server, by name (completed from staff-list-values), with its plan. */
export function OrganizationsTab() {
  const navigate = useNavigate();
  const { text, setText, search } = useSearchText(SEARCH_PARAM);
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const organizations = useStaffOrganizationsQuery({ search, offset: page * pageSize, limit: pageSize });
  const names = useStaffOrganizationSearchQuery({ startsWith: text.trim() });

  const columns: DataTableColumn<StaffOrganization>[] = [
    {
      id: 'name',
      header: 'Organization',
      cell: (organization) => (
        <div className="flex min-w-0 flex-col">
          <span className="font-medium">{organization.name}</span>
          <span className="text-muted-foreground font-mono text-xs">#{organization.id}</span>
        </div>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: (organization) => (
        <Badge variant="outline" className="text-muted-foreground">
          {organization.isPersonal ? 'Personal' : 'Shared'}
        </Badge>
      ),
    },
    { id: 'tier', header: 'Tier', cell: (organization) => organization.featureTier },
    {
      id: 'members',
      header: 'Member limit',
      className: 'tabular-nums',
      cell: (organization) => limit(organization.memberLimit),
    },
    {
      id: 'workspaces',
      header: 'Workspace limit',
      className: 'tabular-nums',
      cell: (organization) => limit(organization.workspaceLimit),
    },
    {
      id: 'created',
      header: 'Created',
      cell: (organization) => <TimeAgoCell value={organization.created} />,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-1.5 text-right',
      cell: (organization) => (
        <Button
          variant="outline"
          size="sm"
          aria-label={`Open ${organization.name} on the Team page`}
          onClick={() => {
            pickScope(organizationScope(organization));
            navigate(paths.team);
          }}
        >
          Team
        </Button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <SearchBox
        label="Search organizations"
        placeholder="Organization name"
        value={text}
        onChange={setText}
        list={SUGGESTIONS}
      />
      <datalist id={SUGGESTIONS}>
        {(names.data?.items ?? []).map((organization) => (
          <option key={organization.id} value={organization.name} />
        ))}
      </datalist>
      {organizations.isError ? (
        <ErrorState
          title="Could not load organizations"
          message={errorMessage(organizations.error)}
          onRetry={() => void organizations.refetch()}
        />
      ) : (
        <DataTable
          rows={organizations.data?.items ?? []}
          columns={columns}
          getRowId={(organization) => String(organization.id)}
          loading={organizations.isPending || (organizations.isPlaceholderData && organizations.isFetching)}
          empty={
            <EmptyState
              icon={Building2Icon}
              title={search ? `No organization matches “${search}”` : 'No organizations yet'}
              className="border-0 py-6"
            />
          }
          total={organizations.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
        />
      )}
    </div>
  );
}
