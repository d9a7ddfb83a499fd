import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import type * as React from 'react';
import {
  ClusterNameCell,
  ClusterStateCell,
  CreatorCell,
  TimeAgoCell,
} from '@/components/clusters/cluster-cells';
import { StopClusterButton } from '@/components/clusters/stop-cluster-button';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import type { Direction, OrderField } from '@/features/clusters/dashboard/search-params';
import { formatDuration, runtimeSeconds } from '@/lib/format';

type Order = { orderBy: OrderField; direction: Direction };

/** A row shows a cluster's first few tags; its page shows them all. */
const MAX_TAGS_SHOWN = 3;

function SortHeader({
  field,
  label,
  order,
  onOrder,
}: {
  field: OrderField;
  label: string;
  order: Order;
  onOrder: (orderBy: OrderField, direction: Direction) => void;
}) {
  const active = order.orderBy === field;
  const Icon = !active ? ArrowUpDownIcon : order.direction === 'asc' ? ArrowUpIcon : ArrowDownIcon;
  // A first click sorts names A→Z and times newest first; another click turns it around.
  const firstDirection: Direction = field === 'name' || field === 'state' ? 'asc' : 'desc';
  const next: Direction = active ? (order.direction === 'asc' ? 'desc' : 'asc') : firstDirection;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-muted-foreground hover:text-foreground -ml-2 h-7 px-2 text-xs font-medium"
      aria-label={`Sort by ${label.toLowerCase()}, ${next === 'asc' ? 'ascending' : 'descending'}`}
      onClick={() => onOrder(field, next)}
    >
      {label}
      <Icon className={active ? 'text-foreground size-3.5' : 'size-3.5 opacity-50'} aria-hidden="true" />
    </Button>
  );
}

type ClustersTableProps = {
  clusters: ClusterSummary[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  order: Order;
  onOrder: (orderBy: OrderField, direction: Direction) => void;
  loading: boolean;
  /** Clusters of several workspaces are listed: name each one's workspace. */
  showWorkspace: boolean;
  empty: React.ReactNode;
};

export function ClustersTable({ clusters, order, onOrder, showWorkspace, ...table }: ClustersTableProps) {
  const sort = (field: OrderField, label: string) => (
    <SortHeader field={field} label={label} order={order} onOrder={onOrder} />
  );
  const columns: DataTableColumn<ClusterSummary>[] = [
    {
      id: 'name',
      header: sort('name', 'Name'),
      cell: (cluster) => (
        <ClusterNameCell cluster={cluster} showWorkspace={showWorkspace}>
          {Object.entries(cluster.tags)
            .slice(0, MAX_TAGS_SHOWN)
            .map(([key, value]) => (
              <span key={key} className="bg-muted rounded border px-1.5 leading-4">
                {value ? `${key}=${value}` : key}
              </span>
            ))}
        </ClusterNameCell>
      ),
    },
    {
      id: 'state',
      header: sort('state', 'State'),
      cell: (cluster) => <ClusterStateCell cluster={cluster} />,
    },
    {
      id: 'workers',
      header: 'Workers',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (cluster) => (
        <span title={`${cluster.readyWorkers} ready of ${cluster.desiredWorkers} wanted`}>
          {cluster.readyWorkers}
          <span className="text-muted-foreground"> / {cluster.desiredWorkers}</span>
        </span>
      ),
    },
    {
      id: 'creator',
      header: 'Creator',
      cell: (cluster) => <CreatorCell creator={cluster.creator} />,
    },
    {
      id: 'created',
      header: sort('created', 'Created'),
      cell: (cluster) => <TimeAgoCell value={cluster.created} />,
    },
    {
      id: 'runtime',
      header: 'Runtime',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums text-muted-foreground',
      cell: (cluster) => formatDuration(runtimeSeconds(cluster)),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'w-20',
      className: 'py-1.5 text-right',
      cell: (cluster) => <StopClusterButton cluster={cluster} variant="compact" />,
    },
  ];

  return (
    <DataTable rows={clusters} columns={columns} getRowId={(cluster) => String(cluster.id)} {...table} />
  );
}
