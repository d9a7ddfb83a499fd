import { clusterKeys } from '@/data/clusters/keys';
import { jobKeys } from '@/data/jobs/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Cancels a job: its running tasks and its cluster are stopped. Answers the job's details. */
export const cancelJob = ({ id }: { id: number }) =>
  call(api.DELETE('/api/v2/jobs/{job_id}', { params: { path: { job_id: id } } }));

/** After a cancel: the job as answered, the lists, and its cluster (which stops too). */
export function useJobCancelMutation(options?: MutationOptions<typeof cancelJob>) {
  return useApiMutation(cancelJob, options, (queryClient, job) => {
    queryClient.setQueryData(jobKeys.details(job.id), job);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
      ...(job.clusterId === null
        ? []
        : [
            queryClient.invalidateQueries({ queryKey: jobKeys.ofCluster(job.clusterId) }),
            queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(job.clusterId) }),
            queryClient.invalidateQueries({ queryKey: clusterKeys.lists() }),
          ]),
    ]);
  });
}
