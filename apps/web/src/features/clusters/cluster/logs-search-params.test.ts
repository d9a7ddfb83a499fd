import { describe, expect, it } from 'vitest';

import { logsQuery, parseLogsSearch, writeLogsSearch } from '@/features/clusters/cluster/logs-search-params';

describe('Logs URL state', () => {
  it('reads and writes the pattern, instance and sources, keeping other parameters', () => {
    expect(parseLogsSearch(new URLSearchParams(''))).toEqual({
      pattern: '',
      instance: null,
      dask: true,
      system: true,
    });
    const written = writeLogsSearch(new URLSearchParams('account=acme'), {
      pattern: 'error',
      instance: 7,
      system: false,
    });
    expect(written.toString()).toBe('account=acme&q=error&instance=7&system=0');
    expect(parseLogsSearch(written)).toEqual({ pattern: 'error', instance: 7, dask: true, system: false });
    expect(writeLogsSearch(written, { pattern: ' ', instance: null, system: true }).toString()).toBe(
      'account=acme',
    );
    expect(parseLogsSearch(new URLSearchParams('instance=abc')).instance).toBeNull();
  });

  it('asks better-logs for exactly what is shown', () => {
    const search = (change: Partial<ReturnType<typeof parseLogsSearch>>) => ({
      ...parseLogsSearch(new URLSearchParams('')),
      ...change,
    });
    expect(logsQuery(search({}))).toEqual({});
    expect(logsQuery(search({ pattern: ' worker ', instance: 3 }))).toEqual({
      filter_pattern: 'worker',
      instance_ids: '3',
    });
    expect(logsQuery(search({ system: false }))).toEqual({ dask: true });
    expect(logsQuery(search({ dask: false }))).toEqual({ system: true });
    expect(logsQuery(search({ dask: false, system: false }))).toBeNull();
  });
});
