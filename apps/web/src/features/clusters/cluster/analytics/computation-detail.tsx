import { CodeBlock } from '@/components/code-block';
import { type TaskException, useComputationQuery } from '@/data/analytics/computation-query';
import type { Computation } from '@/data/analytics/computations-query';
import { InlineError, InlineLoading } from '@/features/clusters/cluster/analytics/inline-states';
import { TaskGroupList } from '@/features/clusters/cluster/analytics/task-groups';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { useFormatDateTime } from '@/lib/preferences';

function ExceptionItem({ exception }: { exception: TaskException }) {
  const formatDateTime = useFormatDateTime();
  return (
    <li className="space-y-2 rounded-lg border border-destructive/30 p-3">
      <p className="text-destructive font-mono text-sm break-words">{exception.exception}</p>
      <p className="text-muted-foreground text-xs">
        Task <span className="font-mono break-all">{exception.key}</span>
        {exception.worker ? (
          <>
            {' '}
            on <span className="font-mono break-all">{exception.worker}</span>
          </>
        ) : null}{' '}
        · <span className="whitespace-nowrap">{formatDateTime(exception.time)}</span>
      </p>
      {exception.traceback ? (
        <details>
          <summary className="text-primary cursor-pointer text-sm">Show traceback</summary>
          <CodeBlock
            code={exception.traceback}
            label="Traceback"
            copyLabel="Copy traceback"
            regionLabel={`Traceback of ${exception.key}`}
            className="mt-2"
          />
        </details>
      ) : null}
    </li>
  );
}

/** What a computation ran: its code, its task groups (done/total, durations) and what its tasks raised. */
export function ComputationDetail({ computation, poll }: { computation: Computation; poll: number | false }) {
  const { clusterRef } = useClusterContext();
  // A running computation changes under the reader's eyes; a finished one does not.
  const detail = useComputationQuery(
    { ref: clusterRef, id: computation.id },
    { refetchInterval: computation.status === 'running' ? poll : false },
  );
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <h3 className="text-sm font-medium">Code</h3>
        {computation.code ? (
          <CodeBlock code={computation.code} label="Python" regionLabel="Code of this computation" />
        ) : (
          <p className="text-muted-foreground text-sm">
            Dask did not capture the code that asked for this computation.
          </p>
        )}
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-medium">Task groups</h3>
        {detail.isError ? (
          <InlineError what="its task groups" error={detail.error} />
        ) : detail.isPending ? (
          <InlineLoading className="h-9" />
        ) : detail.data.taskGroups.length === 0 ? (
          <p className="text-muted-foreground text-sm">No task groups reported yet.</p>
        ) : (
          <TaskGroupList groups={detail.data.taskGroups} label="Task groups of this computation" />
        )}
      </div>
      {detail.data && detail.data.exceptions.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-medium">Exceptions ({detail.data.exceptions.length})</h3>
          <ul className="space-y-2">
            {detail.data.exceptions.map((exception) => (
              <ExceptionItem key={exception.id} exception={exception} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
