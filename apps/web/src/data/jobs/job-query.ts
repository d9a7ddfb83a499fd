import { useQuery } from '@tanstack/react-query';

import { jobKeys } from '@/data/jobs/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type JobDetails = ApiData<'/api/v2/jobs/{job_id}', 'get'>;
export type JobTask = JobDetails['tasks'][number];

/** A job with its settings and tasks (secret variables by name only). */
export const getJob = (id: number, signal?: AbortSignal) =>
  call(api.GET('/api/v2/jobs/{job_id}', { params: { path: { job_id: id } }, signal }));

export function useJobQuery<TData = JobDetails>(
  { id }: { id: number },
  { enabled = true, ...options }: QueryOptions<JobDetails, TData> = {},
) {
  return useQuery({
    queryKey: jobKeys.details(id),
    queryFn: ({ signal }) => getJob(id, signal),
    enabled: enabled && Number.isSafeInteger(id) && id > 0,
    ...options,
  });
}
