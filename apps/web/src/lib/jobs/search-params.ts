import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { JobState, JobsQuery } from '@/data/jobs/jobs-query';
import { PAGINATION_PARAMS } from '@/hooks/use-pagination-params';
import { DEFAULT_PAGE } from '@/lib/constants';
import { isJobState } from '@/lib/jobs/states';
import { accepted, param, searchParams } from '@/lib/search-params';

// A jobs list's URL state: `page` (default 0), `pagesize` (default 50) and `state` (one job state;
// none shows every state). Defaults stay out of the URL; other parameters (`account`, `tab`) are kept.

export type JobsSearch = { page: number; pageSize: number; state: JobState | null };

const jobsParams = searchParams({
  ...PAGINATION_PARAMS,
  state: param<JobState | null>('state', accepted(isJobState), null),
});

export const parseJobsSearch = (search: URLSearchParams): JobsSearch => jobsParams.parse(search);

/** `search` with `change` applied; anything but a page change returns to the first page. */
export const writeJobsSearch = (search: URLSearchParams, change: Partial<JobsSearch>): URLSearchParams =>
  jobsParams.write(search, { ...parseJobsSearch(search), page: DEFAULT_PAGE, ...change });

/** The `GET jobs/` query for this URL state, of one workspace or (no slug) of every one the caller reads. */
export function jobsQuery(search: JobsSearch, workspace?: string): JobsQuery {
  return {
    offset: search.page * search.pageSize,
    limit: search.pageSize,
    ...(workspace ? { workspace } : {}),
    ...(search.state ? { state: search.state } : {}),
  };
}

export function useJobsSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = React.useMemo(() => parseJobsSearch(searchParams), [searchParams]);
  const change = React.useCallback(
    (next: Partial<JobsSearch>) => setSearchParams((current) => writeJobsSearch(current, next)),
    [setSearchParams],
  );
  return {
    search,
    setPage: (page: number) => change({ page }),
    setPageSize: (pageSize: number) => change({ pageSize }),
    setState: (state: JobState | null) => change({ state }),
  };
}
