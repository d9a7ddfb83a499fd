import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { JobState, JobsQuery } from '@/data/jobs/jobs-query';
import { readPagination } from '@/hooks/use-pagination-params';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/lib/constants';
import { isJobState } from '@/lib/jobs/states';

// A jobs list's URL state: `page` (default 0), `pagesize` (default 50) and `state` (one job state;
// none shows every state). Defaults stay out of the URL; other parameters (`account`, `tab`) are kept.

export type JobsSearch = { page: number; pageSize: number; state: JobState | null };

export function parseJobsSearch(search: URLSearchParams): JobsSearch {
  const state = search.get('state');
  return { ...readPagination(search), state: state && isJobState(state) ? state : null };
}

/** `search` with `change` applied; anything but a page change returns to the first page. */
export function writeJobsSearch(search: URLSearchParams, change: Partial<JobsSearch>): URLSearchParams {
  const next = { ...parseJobsSearch(search), page: DEFAULT_PAGE, ...change };
  const out = new URLSearchParams(search);
  const put = (name: string, value: string | number | null, fallback: string | number | null) => {
    if (value === fallback) out.delete(name);
    else out.set(name, String(value));
  };
  put('page', next.page, DEFAULT_PAGE);
  put('pagesize', next.pageSize, DEFAULT_PAGE_SIZE);
  put('state', next.state, null);
  return out;
}

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
