import { TimerIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { PlainTable } from '@/components/plain-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { useSpansQuery } from '@/data/analytics/spans-query';
import { formatSeconds } from '@/features/clusters/cluster/analytics/task-groups';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { errorMessage } from '@/lib/api/errors';
import { useFormatDateTime } from '@/lib/preferences';

/** Spans: named stretches of client work recorded on the cluster, newest first. */
export function SpansList({ poll }: { poll: number | false }) {
  const { clusterRef } = useClusterContext();
  const spans = useSpansQuery({ ref: clusterRef }, { refetchInterval: poll });
  const formatDateTime = useFormatDateTime();

  if (spans.isError)
    return (
      <ErrorState
        title="Could not load the spans"
        message={errorMessage(spans.error)}
        onRetry={() => void spans.refetch()}
      />
    );
  if (spans.isPending) return <LoadingSkeleton variant="table" columns={4} rows={3} />;
  if (spans.data.length === 0)
    return (
      <EmptyState
        icon={TimerIcon}
        title="No spans yet"
        description="Spans your code records on this cluster (a name, a start and a stop) show here with how long each took."
      />
    );
  return (
    <PlainTable headers={['Span', 'Started', 'Duration', 'Identifier']}>
      {spans.data.map((span) => (
        <TableRow key={span.id}>
          <TableCell className="px-4 py-2.5 font-mono text-xs">{span.name ?? '—'}</TableCell>
          <TableCell className="text-muted-foreground px-4 py-2.5 text-xs tabular-nums">
            {span.start ? formatDateTime(span.start) : '—'}
          </TableCell>
          <TableCell className="px-4 py-2.5 text-xs tabular-nums">
            {span.duration === null ? (span.start ? 'running' : '—') : formatSeconds(span.duration)}
          </TableCell>
          <TableCell className="text-muted-foreground px-4 py-2.5 font-mono text-xs">
            {span.identifier}
          </TableCell>
        </TableRow>
      ))}
    </PlainTable>
  );
}
