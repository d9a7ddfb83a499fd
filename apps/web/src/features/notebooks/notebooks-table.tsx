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
import { NOT_YOURS, openNotebookLink } from '@/features/notebooks/OpenNotebookPage';
import { useSignedIn } from '@/lib/signed-in';

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

/**
 * Notebook clusters: name (to its cluster page), state, creator, when; Open (Jupyter, in a new
 * tab; the reader's own notebooks only) and Stop.
 */
export function NotebooksTable({ notebooks, ...table }: NotebooksTableProps) {
  const me = useSignedIn().user.id;
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
          {notebook.creator && notebook.creator.id === me ? (
            <Button asChild variant="ghost" size="sm" aria-label={`Open ${notebook.name} in Jupyter`}>
              <a href={openNotebookLink(notebook)} target="_blank" rel="noopener">
                Open
                <ExternalLinkIcon aria-hidden="true" />
              </a>
            </Button>
          ) : (
            <span className="text-muted-foreground px-2 text-xs" title={NOT_YOURS}>
              Not yours to open
            </span>
          )}
          <StopClusterButton cluster={notebook} variant="compact" />
        </div>
      ),
    },
  ];
  return (
    <DataTable rows={notebooks} columns={columns} getRowId={(notebook) => String(notebook.id)} {...table} />
  );
}
