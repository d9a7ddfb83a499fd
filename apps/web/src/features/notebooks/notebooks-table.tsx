import { ArrowRightIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';

import { DataTable, type DataTableColumn } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import {
  ClusterNameCell,
  ClusterStateCell,
  CreatorCell,
  TimeAgoCell,
} from '@/features/clusters/components/cluster-cells';
import { StopClusterButton } from '@/features/clusters/components/stop-cluster-button';
import { clusterLink } from '@/features/clusters/links';

type NotebooksTableProps = {
  notebooks: ClusterSummary[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  loading: boolean;
  empty: React.ReactNode;
};

/** Notebook clusters: name, state, creator, workspace, when; Open (its page) and Stop. */
export function NotebooksTable({ notebooks, ...table }: NotebooksTableProps) {
  const columns: DataTableColumn<ClusterSummary>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: (notebook) => <ClusterNameCell cluster={notebook} />,
    },
    {
      id: 'state',
      header: 'State',
      cell: (notebook) => <ClusterStateCell cluster={notebook} />,
    },
    {
      id: 'creator',
      header: 'Creator',
      cell: (notebook) => <CreatorCell creator={notebook.creator} />,
    },
    {
      id: 'created',
      header: 'Created',
      cell: (notebook) => <TimeAgoCell value={notebook.created} />,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-1.5 text-right',
      cell: (notebook) => (
        <div className="flex items-center justify-end gap-1">
          <Button asChild variant="ghost" size="sm" aria-label={`Open ${notebook.name}`}>
            <Link to={clusterLink(notebook)}>
              Open
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
          <StopClusterButton cluster={notebook} variant="compact" />
        </div>
      ),
    },
  ];
  return (
    <DataTable rows={notebooks} columns={columns} getRowId={(notebook) => String(notebook.id)} {...table} />
  );
}
