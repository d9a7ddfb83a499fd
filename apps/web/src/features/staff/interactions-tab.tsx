import { ActivityIcon } from 'lucide-react';
import * as React from 'react';
import { useSearchParams } from 'react-router';
import { TimeAgoCell } from '@/components/clusters/cluster-cells';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Badge } from '@/components/ui/badge';
import {
  type UserInteraction,
  useInteractionsHelloQuery,
  useUserInteractionsQuery,
} from '@/data/staff/user-interactions-query';
import { InteractionFilters } from '@/features/staff/interaction-filters';
import {
  FILTERS_PARAM,
  type InteractionFilter,
  interactionsQuery,
  readInteractionFilters,
  writeInteractionFilters,
} from '@/features/staff/search-params';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage } from '@/lib/api/errors';

/** `ValueError: bad` shown after its class reads `bad`. */
const withoutClass = (message: string, errorClass: string | null) =>
  errorClass && message.startsWith(`${errorClass}:`) ? message.slice(errorClass.length + 1).trim() : message;

function Outcome({ success }: { success: boolean | null }) {
  if (success === null) return <span className="text-muted-foreground">—</span>;
  return success ? (
    <Badge variant="outline" className="border-success/40 text-success">
      Succeeded
    </Badge>
  ) : (
    <Badge variant="outline" className="border-destructive/40 text-destructive">
      Failed
    </Badge>
  );
}

function Summary() {
  const hello = useInteractionsHelloQuery();
  if (!hello.data) return null;
  const { total, lastDay, failuresLastDay } = hello.data;
  return (
    <p className="text-muted-foreground text-sm">
      {total} interaction{total === 1 ? '' : 's'} recorded; {lastDay} in the last day, {failuresLastDay} of
      them failed.
    </p>
  );
}

/** User interactions: what the Python client and the console reported, filtered, newest first. */
export function InteractionsTab() {
  const [params, setParams] = useSearchParams();
  const { filters, problems } = React.useMemo(
    () => readInteractionFilters(params.get(FILTERS_PARAM)),
    [params],
  );
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const interactions = useUserInteractionsQuery(interactionsQuery(filters, { page, pageSize }));
  const setFilters = (next: InteractionFilter[]) =>
    setParams((current) => {
      if (next.length) current.set(FILTERS_PARAM, writeInteractionFilters(next));
      else current.delete(FILTERS_PARAM);
      current.delete('page');
      return current;
    });

  const columns: DataTableColumn<UserInteraction>[] = [
    { id: 'when', header: 'When', cell: (row) => <TimeAgoCell value={row.timestamp} /> },
    {
      id: 'action',
      header: 'Action',
      cell: (row) => (
        <div className="flex min-w-0 flex-col">
          <span className="font-mono text-xs">{row.action}</span>
          <span className="text-muted-foreground text-xs">
            {row.source}
            {row.clientVersion ? ` ${row.clientVersion}` : ''}
          </span>
        </div>
      ),
    },
    { id: 'outcome', header: 'Outcome', cell: (row) => <Outcome success={row.success} /> },
    {
      id: 'user',
      header: 'User',
      cell: (row) => (
        <div className="flex min-w-0 flex-col">
          <span>{row.user?.username ?? '—'}</span>
          {row.account ? (
            <span className="text-muted-foreground text-xs">
              {row.account.name}
              {row.organization ? ` · ${row.organization.name}` : ''}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'error',
      header: 'Error',
      className: 'max-w-md whitespace-normal',
      cell: (row) =>
        row.errorMessage ? (
          <span className="text-muted-foreground line-clamp-2 text-xs break-words" title={row.errorMessage}>
            {row.errorClass ? <span className="text-foreground font-mono">{row.errorClass} </span> : null}
            {withoutClass(row.errorMessage, row.errorClass)}
          </span>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <Summary />
      <InteractionFilters filters={filters} onChange={setFilters} problems={problems} />
      {interactions.isError ? (
        <ErrorState
          title="Could not load interactions"
          message={errorMessage(interactions.error)}
          onRetry={() => void interactions.refetch()}
        />
      ) : (
        <DataTable
          rows={interactions.data?.items ?? []}
          columns={columns}
          getRowId={(row) => String(row.id)}
          loading={interactions.isPending || (interactions.isPlaceholderData && interactions.isFetching)}
          empty={
            <EmptyState
              icon={ActivityIcon}
              title={filters.length ? 'No interaction matches these filters' : 'No interactions recorded yet'}
              description={
                filters.length
                  ? undefined
                  : 'The Python client reports each cluster it starts, and whether it could.'
              }
              className="border-0 py-6"
            />
          }
          total={interactions.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
        />
      )}
    </div>
  );
}
