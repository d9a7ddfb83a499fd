import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { ServerIcon } from 'lucide-react';
import * as React from 'react';

import { CopyButton } from '@/components/copy-button';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageSection } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { usePaginationParams } from '@/hooks/use-pagination-params';

import { type DemoCluster, fetchDemoPage } from '../demo-clusters';

const columns: DataTableColumn<DemoCluster>[] = [
  {
    id: 'name',
    header: 'Name',
    cell: (cluster) => (
      <div className="flex flex-col">
        <span className="font-medium">{cluster.name}</span>
        <span className="text-muted-foreground inline-flex items-center gap-1 font-mono text-xs">
          {cluster.id}
          <CopyButton
            value={cluster.id}
            label="Copy cluster id"
            className="size-5 [&_svg:not([class*='size-'])]:size-3"
          />
        </span>
      </div>
    ),
  },
  { id: 'state', header: 'State', cell: (cluster) => <StateChip state={cluster.state} /> },
  {
    id: 'workers',
    header: 'Workers',
    cell: (cluster) => cluster.workers,
    className: 'tabular-nums text-right',
    headerClassName: 'text-right',
  },
  {
    id: 'region',
    header: 'Region',
    cell: (cluster) => <span className="font-mono text-xs">{cluster.region}</span>,
  },
  {
    id: 'created',
    header: 'Created',
    cell: (cluster) => (
      <span className="text-muted-foreground tabular-nums">
        {format(cluster.created, 'yyyy-MM-dd HH:mm')}
      </span>
    ),
  },
];

export function TableSection() {
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const [simulateEmpty, setSimulateEmpty] = React.useState(false);
  const [simulateError, setSimulateError] = React.useState(false);

  const query = useQuery({
    queryKey: ['sandbox', 'clusters', { page, pageSize, simulateEmpty, simulateError }],
    queryFn: async () => {
      const result = await fetchDemoPage(page, pageSize);
      if (simulateError) throw new Error("Can't connect to the server");
      return simulateEmpty ? { items: [], count: 0 } : result;
    },
    placeholderData: keepPreviousData,
    retry: false,
  });

  return (
    <PageSection
      id="table"
      title="Data table"
      description="Server pagination from page 0, 50 rows by default; page and pagesize live in the URL."
      actions={
        <div className="flex items-center gap-4">
          <div className="flex items-center gap-2">
            <Switch id="simulate-empty" checked={simulateEmpty} onCheckedChange={setSimulateEmpty} />
            <Label htmlFor="simulate-empty" className="font-normal">
              Empty
            </Label>
          </div>
          <div className="flex items-center gap-2">
            <Switch id="simulate-error" checked={simulateError} onCheckedChange={setSimulateError} />
            <Label htmlFor="simulate-error" className="font-normal">
              Error
            </Label>
          </div>
        </div>
      }
    >
      {query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => setSimulateError(false)} />
      ) : (
        <DataTable
          rows={query.data?.items ?? []}
          columns={columns}
          getRowId={(cluster) => cluster.id}
          total={query.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
          loading={query.isFetching}
          empty={
            <EmptyState
              icon={ServerIcon}
              title="No clusters yet"
              description="Clusters you create from Python or the console show up here."
              className="border-0 py-6"
            />
          }
        />
      )}
    </PageSection>
  );
}
