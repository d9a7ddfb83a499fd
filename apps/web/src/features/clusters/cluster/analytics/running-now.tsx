import { ActivityIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { TimeAgo } from '@/components/time-ago';
import { PROGRESS_POLL_MS, type RunningComputation, useProgressQuery } from '@/data/analytics/progress-query';
import { InlineError, InlineLoading } from '@/features/clusters/cluster/analytics/inline-states';
import { ProgressBar } from '@/features/clusters/cluster/analytics/progress-bar';
import { count, TaskGroupList } from '@/features/clusters/cluster/analytics/task-groups';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { hasEnded } from '@/lib/clusters/states';

/** The first line of the code that asked for a computation: what a reader recognises it by. */
export function firstLine(code: string): string {
  return code.split('\n').find((line) => line.trim()) ?? '';
}

function Running({ computation }: { computation: RunningComputation }) {
  const line = firstLine(computation.code);
  return (
    <article aria-label={`Computation ${computation.identifier}`} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 truncate font-mono text-xs" title={computation.code || undefined}>
          {line || <span className="text-muted-foreground font-sans">Code not captured</span>}
        </p>
        <p className="text-muted-foreground text-xs">
          Started <TimeAgo value={computation.start} /> · {count(computation.nGroups, 'task group')}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <ProgressBar
          label={`All tasks: ${computation.nDone} of ${computation.nTasks} done`}
          done={computation.nDone}
          total={computation.nTasks}
          className="h-2.5"
        />
        <span className="shrink-0 text-sm tabular-nums">
          {computation.nDone} / {computation.nTasks}
        </span>
      </div>
      <TaskGroupList groups={computation.taskGroups} label="Task groups running now" />
    </article>
  );
}

/**
 * What the cluster computes now, from its scheduler's reports (so without Dask's dashboard):
 * each running computation's task groups with done/total. Looked at every 2 s while the cluster runs.
 */
export function RunningNow() {
  const { cluster, clusterRef } = useClusterContext();
  const ended = hasEnded(cluster.currentState.state);
  const progress = useProgressQuery(
    { ref: clusterRef },
    { refetchInterval: ended ? false : PROGRESS_POLL_MS },
  );
  const running = progress.data?.computations ?? [];

  return (
    <section aria-labelledby="running-now" className="bg-card space-y-4 rounded-xl border p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id="running-now" className="text-base font-semibold">
          Running now
        </h2>
        {!ended && (
          <span className="text-muted-foreground inline-flex items-center gap-1.5 text-xs">
            <ActivityIcon className="size-3.5" aria-hidden="true" /> Live
          </span>
        )}
      </div>
      {progress.isError ? (
        <InlineError what="what runs now" error={progress.error} />
      ) : progress.isPending ? (
        <InlineLoading />
      ) : running.length === 0 ? (
        <EmptyState
          icon={ActivityIcon}
          className="py-8"
          title={ended ? 'The cluster is not running' : 'Nothing is computing right now'}
          description={
            ended
              ? 'Its computations are listed below.'
              : 'When code on this cluster calls compute(), its task groups show here with how many tasks are done.'
          }
        />
      ) : (
        <div className="space-y-6">
          {running.map((computation) => (
            <Running key={computation.id} computation={computation} />
          ))}
        </div>
      )}
    </section>
  );
}
