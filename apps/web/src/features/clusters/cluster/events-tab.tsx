import { HistoryIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { PlainTable } from '@/components/plain-table';
import { StateChip } from '@/components/state-chip';
import { TableCell, TableRow } from '@/components/ui/table';
import {
  type ClusterStates,
  type StateRecord,
  stateMark,
  useClusterStatesQuery,
} from '@/data/clusters/cluster-states-query';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { errorMessage } from '@/lib/api/errors';
import { clusterPollMs } from '@/lib/clusters/states';
import { useFormatDateTime } from '@/lib/preferences';

/** The `states` map's object types, camelCased by the data layer. */
const OBJECT_LABELS: Record<string, string> = {
  cluster: 'Cluster',
  clusterInfra: 'Infrastructure',
  scheduler: 'Scheduler',
  schedulerInstance: 'Scheduler instance',
  worker: 'Worker',
  workerInstance: 'Worker instance',
};

export type ClusterEvent = StateRecord & { objectType: string };

/** Every record of every object, newest first (same instant: the order they were written). */
export function clusterEvents(states: ClusterStates): ClusterEvent[] {
  return Object.entries(states)
    .flatMap(([objectType, records]) => records.map((record) => ({ ...record, objectType })))
    .sort((a, b) => b.updated.localeCompare(a.updated) || b.id - a.id);
}

/** Events: the state history of the cluster, its infrastructure, processes and instances. */
export function ClusterEventsTab() {
  const { cluster, clusterRef } = useClusterContext();
  const states = useClusterStatesQuery(
    { ref: clusterRef, at: stateMark(cluster) },
    { refetchInterval: clusterPollMs(cluster.currentState.state) },
  );
  const formatDateTime = useFormatDateTime();

  if (states.isError)
    return <ErrorState message={errorMessage(states.error)} onRetry={() => void states.refetch()} />;
  if (states.isPending) return <LoadingSkeleton variant="table" columns={4} rows={6} />;
  const events = clusterEvents(states.data);
  if (events.length === 0)
    return <EmptyState icon={HistoryIcon} title="No events yet" description="State changes show up here." />;

  return (
    <PlainTable headers={['Time', 'Object', 'State', 'Reason']}>
      {events.map((event) => (
        <TableRow key={`${event.objectType}-${event.id}`}>
          <TableCell className="text-muted-foreground px-4 py-2.5 font-mono text-xs tabular-nums">
            {formatDateTime(event.updated)}
          </TableCell>
          <TableCell className="px-4 py-2.5">
            <div className="flex flex-col">
              <span>{OBJECT_LABELS[event.objectType] ?? event.objectType}</span>
              {event.statefulObject.name ? (
                <span className="text-muted-foreground font-mono text-xs">{event.statefulObject.name}</span>
              ) : null}
            </div>
          </TableCell>
          <TableCell className="px-4 py-2.5">
            <StateChip state={event.state} />
          </TableCell>
          <TableCell className="text-muted-foreground max-w-xl px-4 py-2.5 whitespace-normal">
            {event.reason || '—'}
          </TableCell>
        </TableRow>
      ))}
    </PlainTable>
  );
}
