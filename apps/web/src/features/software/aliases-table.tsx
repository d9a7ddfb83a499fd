import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';

import { DataTable, type DataTableColumn } from '@/components/data-table';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import type { Alias } from '@/data/software/aliases-query';
import type { Direction, OrderField } from '@/features/software/search-params';
import { formatBytes, timeAgo } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';
import { aliasLink } from '@/lib/software/links';

type Order = { orderBy: OrderField; direction: Direction };

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
  const first: Direction = field === 'updated' ? 'desc' : 'asc';
  const next: Direction = active ? (order.direction === 'asc' ? 'desc' : 'asc') : first;
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

type AliasesTableProps = {
  aliases: Alias[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  order: Order;
  onOrder: (orderBy: OrderField, direction: Direction) => void;
  loading: boolean;
  showWorkspace: boolean;
  empty: React.ReactNode;
};

export function AliasesTable({ aliases, order, onOrder, showWorkspace, ...table }: AliasesTableProps) {
  const formatDateTime = useFormatDateTime();
  const sort = (field: OrderField, label: string) => (
    <SortHeader field={field} label={label} order={order} onOrder={onOrder} />
  );
  const columns: DataTableColumn<Alias>[] = [
    {
      id: 'name',
      header: sort('name', 'Name'),
      cell: (alias) => (
        <div className="flex min-w-0 flex-col">
          <Link
            to={aliasLink(alias)}
            className="hover:text-primary truncate font-medium underline-offset-4 hover:underline"
          >
            {alias.name}
          </Link>
          <span className="text-muted-foreground font-mono text-xs">
            #{alias.id}
            {showWorkspace ? ` · ${alias.account.name}` : ''}
          </span>
        </div>
      ),
    },
    {
      id: 'status',
      header: sort('status', 'Status'),
      cell: (alias) =>
        alias.status ? (
          <StateChip state={alias.status} title={alias.latestSpec?.latestBuild?.reason || undefined} />
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
    {
      id: 'package_sync',
      header: sort('package_sync', 'Package sync'),
      cell: (alias) => (alias.packageSync ? 'Yes' : <span className="text-muted-foreground">No</span>),
    },
    {
      id: 'specs',
      header: 'Specs',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (alias) => alias.specCount,
    },
    {
      id: 'disk',
      header: 'Disk',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums text-muted-foreground',
      cell: (alias) => formatBytes(alias.diskBytes),
    },
    {
      id: 'creator',
      header: 'Creator',
      cell: (alias) => alias.creator?.username ?? <span className="text-muted-foreground">—</span>,
    },
    {
      id: 'updated',
      header: sort('updated', 'Updated'),
      cell: (alias) => (
        <time
          dateTime={alias.updated}
          title={formatDateTime(alias.updated)}
          className="text-muted-foreground"
        >
          {timeAgo(alias.updated)}
        </time>
      ),
    },
  ];
  return <DataTable rows={aliases} columns={columns} getRowId={(alias) => String(alias.id)} {...table} />;
}
