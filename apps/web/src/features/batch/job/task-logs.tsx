import { XIcon } from 'lucide-react';
import * as React from 'react';

import { ErrorState } from '@/components/error-state';
import { FormAlert } from '@/components/form-alert';
import { LogView } from '@/components/log-view';
import { PageSection } from '@/components/page';
import { Button } from '@/components/ui/button';
import { useClusterLogsQuery } from '@/data/clusters/cluster-logs-query';
import type { ClusterRef } from '@/data/clusters/keys';
import type { JobDetails, JobTask } from '@/data/jobs/job-query';
import { errorMessage } from '@/lib/api/errors';
import { isLive, LOG_POLL_MS, LOG_TRAILING_MS } from '@/lib/jobs/states';
import { useFormatDateTime } from '@/lib/preferences';

type TaskLogsProps = {
  job: JobDetails;
  task: JobTask;
  /** The job's cluster, once known (none before it starts). */
  clusterRef: ClusterRef | null;
  onClose: () => void;
};

/** One task's lines (better-logs filtered by the task's id), below the tasks, followed while the job runs. */
export function TaskLogs({ job, task, clusterRef, onClose }: TaskLogsProps) {
  const section = React.useRef<HTMLDivElement>(null);
  // Opening a task's logs brings them into view (the page mounts this anew for each task).
  React.useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, []);
  return (
    <div ref={section} className="scroll-mt-20">
      <PageSection
        title={`Logs of task ${task.arrayTaskId}`}
        description={task.assignedTo ? `On ${task.assignedTo.name}` : undefined}
        actions={
          <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close the task's logs">
            <XIcon />
            Close
          </Button>
        }
      >
        {clusterRef ? (
          <TaskLogLines job={job} task={task} clusterRef={clusterRef} />
        ) : job.clusterId === null ? (
          <p className="text-muted-foreground rounded-xl border border-dashed p-6 text-center text-sm">
            No logs yet: the job is waiting for its cluster.
          </p>
        ) : (
          <LogView lines={[]} formatTime={String} loading />
        )}
      </PageSection>
    </div>
  );
}

function TaskLogLines({
  job,
  task,
  clusterRef,
}: Omit<TaskLogsProps, 'onClose'> & { clusterRef: ClusterRef }) {
  const formatDateTime = useFormatDateTime();
  // Asked again after each answer, so polling ends a while after the job does.
  const following = () =>
    isLive(job.jobState) ||
    (job.completed !== null && Date.now() - new Date(job.completed).getTime() < LOG_TRAILING_MS);
  const logs = useClusterLogsQuery(
    { ref: clusterRef, query: { task_id: task.id } },
    { refetchInterval: () => (following() ? LOG_POLL_MS : false) },
  );
  const lines = logs.data?.lines ?? [];
  const prefix = job.clusterName ? `${job.clusterName}-` : null;

  if (logs.isError && lines.length === 0)
    return (
      <ErrorState
        title="Could not load logs"
        message={errorMessage(logs.error)}
        onRetry={() => void logs.refetch()}
      />
    );
  return (
    <>
      {logs.isError ? <FormAlert>New lines could not be loaded: {errorMessage(logs.error)}</FormAlert> : null}
      <LogView
        lines={lines}
        dropped={logs.data?.dropped}
        formatTime={(timestamp) => formatDateTime(new Date(timestamp))}
        loading={logs.isPending}
        emptyText={task.state === 'pending' ? 'The task has not started yet.' : undefined}
        instanceLabel={(name) => (prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name)}
      />
    </>
  );
}
