import { describe, expect, it } from 'vitest';

import { jobsQuery, parseJobsSearch, writeJobsSearch } from '@/lib/jobs/search-params';
import { elapsedSeconds, jobsPollMs } from '@/lib/jobs/states';

const url = (query: string) => new URLSearchParams(query);

describe('jobs list URL state', () => {
  it('reads page, size and one known state; ignores the rest', () => {
    expect(parseJobsSearch(url('page=2&pagesize=10&state=failed'))).toEqual({
      page: 2,
      pageSize: 10,
      state: 'failed',
    });
    expect(parseJobsSearch(url('state=exploded&page=-1'))).toEqual({ page: 0, pageSize: 50, state: null });
  });

  it('writes only what differs from the defaults, keeps other parameters, and returns to page 0', () => {
    const next = writeJobsSearch(url('account=acme&tab=jobs&page=4'), { state: 'running' });
    expect(next.toString()).toBe('account=acme&tab=jobs&state=running');
    expect(writeJobsSearch(next, { page: 1 }).toString()).toBe('account=acme&tab=jobs&state=running&page=1');
  });

  it('asks for a page by offset, of one workspace or every one', () => {
    expect(jobsQuery({ page: 2, pageSize: 25, state: null })).toEqual({ offset: 50, limit: 25 });
    expect(jobsQuery({ page: 0, pageSize: 50, state: 'done' }, 'acme')).toEqual({
      offset: 0,
      limit: 50,
      workspace: 'acme',
      state: 'done',
    });
  });
});

describe('job timing', () => {
  it('polls every 2 s while a job is live, else rarely', () => {
    expect(jobsPollMs([{ state: 'done' }, { state: 'pending' }])).toBe(2_000);
    expect(jobsPollMs([{ state: 'failed' }])).toBe(30_000);
  });

  it('measures a job or task until it ended, or until now', () => {
    const start = '2030-01-01T00:00:00+00:00';
    expect(elapsedSeconds(start, '2030-01-01T00:01:30+00:00')).toBe(90);
    expect(elapsedSeconds(start, null, Date.parse('2030-01-01T00:00:05+00:00'))).toBe(5);
    expect(elapsedSeconds(null, null)).toBeNull();
  });
});
