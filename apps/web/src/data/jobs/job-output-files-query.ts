import { useQuery } from '@tanstack/react-query';

import { jobKeys } from '@/data/jobs/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type JobOutputFiles = ApiData<'/api/v2/jobs/{job_id}/output-files', 'get'>;

/** The files in a job's output filestores, each with an expiring download link. */
export const getJobOutputFiles = (id: number, signal?: AbortSignal) =>
  call(api.GET('/api/v2/jobs/{job_id}/output-files', { params: { path: { job_id: id } }, signal }));

export function useJobOutputFilesQuery<TData = JobOutputFiles>(
  { id }: { id: number },
  options: QueryOptions<JobOutputFiles, TData> = {},
) {
  return useQuery({
    queryKey: [...jobKeys.details(id), 'output-files'] as const,
    queryFn: ({ signal }) => getJobOutputFiles(id, signal),
    ...options,
  });
}
