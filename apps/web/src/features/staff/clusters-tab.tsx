import { CircleCheckIcon, EyeIcon, EyeOffIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import {
  ClusterNameCell,
  ClusterStateCell,
  CreatorCell,
  TimeAgoCell,
} from '@/components/clusters/cluster-cells';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { type AttentionCluster, useAttentionClustersQuery } from '@/data/staff/attention-clusters-query';
import { useStaffSeenMutation } from '@/data/staff/staff-seen-mutation';
import { SEEN_PARAM } from '@/features/staff/search-params';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage, serverMessage } from '@/lib/api/errors';

function SeenButton({ cluster }: { cluster: AttentionCluster }) {
  const mark = useStaffSeenMutation();
  const seen = !cluster.staffHasSeen;
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={mark.isPending}
      aria-label={`${seen ? 'Mark seen' : 'Mark not seen'}: ${cluster.name}`}
      onClick={() =>
        mark.mutate(
          { ref: { account: cluster.account.slug, id: cluster.id }, seen },
          { onError: (error) => toast.error(serverMessage(error)) },
        )
      }
    >
      {seen ? <EyeIcon aria-hidden="true" /> : <EyeOffIcon aria-hidden="true" />}
      {seen ? 'Mark seen' : 'Not seen'}
    </Button>
  );
}

/** Clusters needing attention: failed ones staff have not looked at yet (or, switched, those they have). */
export function ClustersTab() {
  const [params, setParams] = useSearchParams();
  const seen = params.get(SEEN_PARAM) === '1';
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const clusters = useAttentionClustersQuery({ seen, offset: page * pageSize, limit: pageSize });

  const columns: DataTableColumn<AttentionCluster>[] = [
    {
      id: 'name',
      header: 'Cluster',
      cell: (cluster) => <ClusterNameCell cluster={cluster} />,
    },
    { id: 'state', header: 'State', cell: (cluster) => <ClusterStateCell cluster={cluster} /> },
    {
      id: 'reason',
      header: 'Reason',
      // Wide enough to read on a phone (the table scrolls in its card), not one word a line.
      className: 'min-w-64 max-w-md whitespace-normal text-muted-foreground',
      cell: (cluster) => cluster.reason || '—',
    },
    { id: 'creator', header: 'Creator', cell: (cluster) => <CreatorCell creator={cluster.creator} /> },
    {
      id: 'failed',
      header: 'Failed',
      cell: (cluster) => <TimeAgoCell value={cluster.currentState.updated} />,
    },
    ...(seen
      ? [
          {
            id: 'seenBy',
            header: 'Seen by',
            cell: (cluster: AttentionCluster) => cluster.staffSeenBy?.username ?? '—',
          },
        ]
      : []),
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-1.5 text-right',
      cell: (cluster) => <SeenButton cluster={cluster} />,
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <Tabs
        className="gap-4"
        value={seen ? 'seen' : 'unseen'}
        onValueChange={(next) =>
          setParams((current) => {
            if (next === 'seen') current.set(SEEN_PARAM, '1');
            else current.delete(SEEN_PARAM);
            current.delete('page');
            return current;
          })
        }
      >
        <TabsList aria-label="Which failed clusters">
          <TabsTrigger value="unseen" className="px-3">
            Needs attention
          </TabsTrigger>
          <TabsTrigger value="seen" className="px-3">
            Seen
          </TabsTrigger>
        </TabsList>
        {/* The list is the tabs' panel: each tab controls an element that is there (ARIA). */}
        <TabsContent value={seen ? 'seen' : 'unseen'}>
          {clusters.isError ? (
            <ErrorState
              title="Could not load clusters"
              message={errorMessage(clusters.error)}
              onRetry={() => void clusters.refetch()}
            />
          ) : (
            <DataTable
              rows={clusters.data?.items ?? []}
              columns={columns}
              getRowId={(cluster) => String(cluster.id)}
              loading={clusters.isPending || (clusters.isPlaceholderData && clusters.isFetching)}
              empty={
                <EmptyState
                  icon={CircleCheckIcon}
                  title={seen ? 'No failed cluster marked seen yet' : 'No failed cluster needs attention'}
                  description={
                    seen ? undefined : 'Clusters that fail show up here until a staff member marks them seen.'
                  }
                  className="border-0 py-6"
                />
              }
              total={clusters.data?.count ?? 0}
              page={page}
              pageSize={pageSize}
              onPageChange={setPage}
              onPageSizeChange={setPageSize}
            />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}
