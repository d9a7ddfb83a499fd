import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { jobKeys } from '@/data/jobs/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type JobsQuery = NonNullable<paths['/api/v2/jobs/']['get']['parameters']['query']>;
export type JobsPage = ApiData<'/api/v2/jobs/', 'get'>;
export type JobSummary = JobsPage['items'][number];
export type JobState = JobSummary['state'];

/** Batch jobs, newest first: of `workspace`, else of every workspace the caller reads. */
export const getJobs = (query: JobsQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/jobs/', { params: { query }, signal }));

/** `query` null: the scope is not known yet. The previous page stays shown while the next loads. */
export function useJobsQuery<TData = JobsPage>(
  { query }: { query: JobsQuery | null },
  { enabled = true, ...options }: QueryOptions<JobsPage, TData> = {},
) {
  return useQuery({
    queryKey: jobKeys.list(query ?? {}),
    queryFn: ({ signal }) => getJobs(query ?? {}, signal),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
