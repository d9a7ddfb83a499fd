import { Link } from 'react-router';
import { TaskTally } from '@/components/jobs/task-tally';
import { StateHeader } from '@/components/state-header';
import { TimeAgo } from '@/components/time-ago';
import type { JobDetails } from '@/data/jobs/job-query';
import { CancelJobButton } from '@/features/batch/job/cancel-job-button';
import { formatDuration } from '@/lib/format';
import { jobClusterLink } from '@/lib/jobs/links';
import { elapsedSeconds, isLive } from '@/lib/jobs/states';

/** "Batch job N", its state and why, Cancel while it is live, and who, where, when and how far. */
export function JobHeader({ job, clusterSlug }: { job: JobDetails; clusterSlug?: string }) {
  const seconds = elapsedSeconds(job.started, job.completed);
  return (
    <StateHeader
      title={`Batch job ${job.id}`}
      state={job.jobState}
      reason={job.reason}
      actions={isLive(job.jobState) ? <CancelJobButton jobId={job.id} /> : null}
      facts={[
        { label: 'Workspace', value: job.workspaceName },
        { label: 'Creator', value: job.creator ?? '—' },
        {
          label: 'Cluster',
          value:
            job.clusterId === null ? (
              <span className="text-muted-foreground">None started yet</span>
            ) : (
              <Link
                to={jobClusterLink(job.clusterId, clusterSlug)}
                className="text-primary font-mono underline-offset-4 hover:underline"
              >
                {job.clusterName ?? `#${job.clusterId}`}
              </Link>
            ),
        },
        { label: 'Created', value: <TimeAgo value={job.created} /> },
        {
          label: 'Duration',
          // A finished job without a start never ran a task (cancelled, or its cluster failed first).
          value: seconds !== null ? formatDuration(seconds) : job.finished ? 'Did not run' : 'Not started',
        },
        { label: 'Tasks', value: <TaskTally job={job} /> },
      ]}
    />
  );
}
