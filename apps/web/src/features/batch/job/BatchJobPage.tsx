import * as React from 'react';
import { useParams } from 'react-router';

import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { NotFoundState } from '@/components/not-found-state';
import { Page, PageSection } from '@/components/page';
import { useClusterFrontendQuery } from '@/data/clusters/cluster-frontend-query';
import { useJobQuery } from '@/data/jobs/job-query';
import { JobHeader } from '@/features/batch/job/job-header';
import { JobCommand, JobEnvironment, JobSettings } from '@/features/batch/job/job-settings';
import { JobOutputFiles } from '@/features/batch/job/output-files';
import { useOpenTask } from '@/features/batch/job/search-params';
import { TaskLogs } from '@/features/batch/job/task-logs';
import { TasksTable } from '@/features/batch/job/tasks-table';
import { errorMessage, isApiError } from '@/lib/api/errors';
import { dashboardJobsLink } from '@/lib/clusters/links';
import { isLive, JOB_POLL_MS } from '@/lib/jobs/states';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';

/**
 * A batch job's page (`/batch/jobs/{id}`, for every member of its workspace): its state, settings
 * and tasks, each task's logs below on demand. Refreshed every 2 s while the job is live.
 */
export function BatchJobPage() {
  const params = useParams();
  const id = Number(params.jobId);
  const valid = /^\d+$/.test(params.jobId ?? '') && Number.isSafeInteger(id) && id > 0;
  const job = useJobQuery(
    { id },
    {
      enabled: valid,
      refetchInterval: (query) => (isLive(query.state.data?.jobState) ? JOB_POLL_MS : false),
    },
  );
  // The cluster's workspace (the job names only its workspace's name): for its logs and its link.
  const clusterId = job.data?.clusterId ?? null;
  const frontend = useClusterFrontendQuery({ id: clusterId ?? 0 }, { enabled: clusterId !== null });
  const clusterRef = React.useMemo(
    () =>
      clusterId !== null && frontend.data ? { account: frontend.data.account.slug, id: clusterId } : null,
    [clusterId, frontend.data],
  );
  const [openTask, setOpenTask] = useOpenTask();

  usePageMeta({
    title: `Batch job ${valid ? id : ''}`.trim(),
    breadcrumbs: [
      { label: 'Dashboard', to: paths.clusters },
      { label: 'Jobs', to: dashboardJobsLink },
      { label: valid ? `Batch job ${id}` : 'Batch job' },
    ],
  });

  if (!valid || (isApiError(job.error) && job.error.kind === 'notFound'))
    return (
      <NotFoundState
        title="Batch job not found"
        back={{ to: dashboardJobsLink, label: 'Back to the jobs' }}
      />
    );
  if (job.isError && !job.data)
    return (
      <Page>
        <ErrorState
          title="Could not load this batch job"
          message={errorMessage(job.error)}
          onRetry={() => void job.refetch()}
          retrying={job.isFetching}
        />
      </Page>
    );
  if (job.isPending)
    return (
      <Page>
        <LoadingSkeleton variant="page" />
      </Page>
    );

  const task = job.data.tasks.find((candidate) => candidate.arrayTaskId === openTask) ?? null;
  return (
    <Page className="gap-5">
      <JobHeader job={job.data} clusterSlug={clusterRef?.account} />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid content-start gap-5">
          <JobCommand job={job.data} />
          <JobEnvironment job={job.data} />
        </div>
        <JobSettings job={job.data} />
      </div>
      <JobOutputFiles jobId={job.data.id} live={isLive(job.data.jobState)} />
      <PageSection title="Tasks" description={`${job.data.nTasks} in all, by array task id`}>
        <TasksTable
          jobId={job.data.id}
          tasks={job.data.tasks}
          openTask={openTask}
          onLogs={(arrayTaskId) => setOpenTask(arrayTaskId === openTask ? null : arrayTaskId)}
        />
      </PageSection>
      {task ? (
        <TaskLogs
          key={task.id}
          job={job.data}
          task={task}
          clusterRef={clusterRef}
          onClose={() => setOpenTask(null)}
        />
      ) : null}
    </Page>
  );
}
