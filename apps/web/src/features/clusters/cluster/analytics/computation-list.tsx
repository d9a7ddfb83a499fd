import { ChevronRightIcon, CpuIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { StateChip } from '@/components/state-chip';
import { type Computation, useComputationsQuery } from '@/data/analytics/computations-query';
import { ComputationDetail } from '@/features/clusters/cluster/analytics/computation-detail';
import { firstLine } from '@/features/clusters/cluster/analytics/running-now';
import { useAnalyticsParams } from '@/features/clusters/cluster/analytics/search-params';
import { count, formatSeconds } from '@/features/clusters/cluster/analytics/task-groups';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { errorMessage } from '@/lib/api/errors';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

/** The chip of each status the server decides (analytics/present.ts computationStatus). */
const STATUS_CHIP: Record<Computation['status'], { state: string; label: (c: Computation) => string }> = {
  running: { state: 'running', label: () => 'Running' },
  finished: { state: 'done', label: () => 'Finished' },
  erred: { state: 'failed', label: (c) => `${c.nExceptions} erred` },
  unfinished: { state: 'stopped', label: () => 'Unfinished' },
};

function ComputationItem({
  computation,
  open,
  onToggle,
  poll,
}: {
  computation: Computation;
  open: boolean;
  onToggle: () => void;
  poll: number | false;
}) {
  const formatDateTime = useFormatDateTime();
  const chip = STATUS_CHIP[computation.status];
  const line = firstLine(computation.code);
  const panel = `computation-${computation.id}`;
  return (
    <li className="bg-card rounded-xl border">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={onToggle}
        className="hover:bg-muted/40 focus-visible:ring-ring/50 flex w-full items-start gap-3 rounded-xl p-4 text-left outline-none focus-visible:ring-[3px]"
      >
        <ChevronRightIcon
          className={cn(
            'text-muted-foreground mt-0.5 size-4 shrink-0 transition-transform',
            open && 'rotate-90',
          )}
          aria-hidden="true"
        />
        <span className="min-w-0 flex-1 space-y-1.5">
          <span className="block truncate font-mono text-sm">
            {line || <span className="text-muted-foreground font-sans">Code not captured</span>}
          </span>
          <span className="text-muted-foreground flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
            <StateChip state={chip.state} label={chip.label(computation)} />
            <span className="tabular-nums">{formatDateTime(computation.start)}</span>
            <span className="tabular-nums">
              {computation.duration !== null
                ? formatSeconds(computation.duration)
                : computation.status === 'running'
                  ? 'running'
                  : '—'}
            </span>
            <span className="tabular-nums">
              {count(computation.nTasks, 'task')} · {count(computation.nGroups, 'group')}
            </span>
            {computation.taskPrefixes.length > 0 && (
              <span className="font-mono">{computation.taskPrefixes.slice(0, 3).join(', ')}</span>
            )}
          </span>
        </span>
      </button>
      {open && (
        <div id={panel} className="border-t p-4">
          <ComputationDetail computation={computation} poll={poll} />
        </div>
      )}
    </li>
  );
}

/** The cluster's computations, newest first; one opens (`?computation=`) to show what it ran. */
export function ComputationList({ poll }: { poll: number | false }) {
  const { clusterRef } = useClusterContext();
  const [params, setParams] = useAnalyticsParams();
  const computations = useComputationsQuery({ ref: clusterRef }, { refetchInterval: poll });

  if (computations.isError)
    return (
      <ErrorState
        title="Could not load the computations"
        message={errorMessage(computations.error)}
        onRetry={() => void computations.refetch()}
      />
    );
  if (computations.isPending) return <LoadingSkeleton variant="table" columns={3} rows={4} />;
  if (computations.data.length === 0)
    return (
      <EmptyState
        icon={CpuIcon}
        title="No computations yet"
        description="Each time code on this cluster calls compute() or persist(), the computation shows here with its code, task groups, durations and any exceptions."
      />
    );
  return (
    <ul aria-label="Computations" className="space-y-3">
      {computations.data.map((computation) => {
        const open = params.computation === computation.id;
        return (
          <ComputationItem
            key={computation.id}
            computation={computation}
            open={open}
            poll={poll}
            onToggle={() => setParams({ computation: open ? null : computation.id })}
          />
        );
      })}
    </ul>
  );
}
