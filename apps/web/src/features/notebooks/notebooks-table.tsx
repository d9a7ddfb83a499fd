import { ExternalLinkIcon } from 'lucide-react';
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
import { openNotebookLink } from '@/features/notebooks/OpenNotebookPage';

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

/** Notebook clusters: name (to its cluster page), state, creator, when; Open (Jupyter, in a new tab) and Stop. */
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
          <Button asChild variant="ghost" size="sm" aria-label={`Open ${notebook.name} in Jupyter`}>
            <a href={openNotebookLink(notebook)} target="_blank" rel="noopener">
              Open
              <ExternalLinkIcon aria-hidden="true" />
            </a>
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
