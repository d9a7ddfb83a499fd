import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { BetterLogsQuery } from '@/data/clusters/cluster-logs-query';

// The Logs tab's URL state: `q` (a filter pattern), `instance` (one instance's id), and `dask=0`
// / `system=0` to hide either source. Defaults stay out of the URL.

export type LogsSearch = {
  pattern: string;
  instance: number | null;
  dask: boolean;
  system: boolean;
};

const MAX_PATTERN = 500;

export function parseLogsSearch(search: URLSearchParams): LogsSearch {
  const instance = search.get('instance');
  return {
    pattern: (search.get('q') ?? '').slice(0, MAX_PATTERN),
    instance: instance && /^\d{1,10}$/.test(instance) && Number(instance) > 0 ? Number(instance) : null,
    dask: search.get('dask') !== '0',
    system: search.get('system') !== '0',
  };
}

/** The query string for `change` on top of `search` (other parameters, like `account`, are kept). */
export function writeLogsSearch(search: URLSearchParams, change: Partial<LogsSearch>): URLSearchParams {
  const next = { ...parseLogsSearch(search), ...change };
  const out = new URLSearchParams(search);
  const put = (name: string, value: string | null) =>
    value === null ? out.delete(name) : out.set(name, value);
  put('q', next.pattern.trim() ? next.pattern.slice(0, MAX_PATTERN) : null);
  put('instance', next.instance === null ? null : String(next.instance));
  put('dask', next.dask ? null : '0');
  put('system', next.system ? null : '0');
  return out;
}

/** `instance=7` and friends, for links into the Logs tab. */
export const logsSearch = (change: Partial<LogsSearch>) =>
  writeLogsSearch(new URLSearchParams(), change).toString();

/**
 * The better-logs filters for this state (client-contract.md 2.7), or null when both sources are
 * hidden and there is nothing to ask for.
 */
export function logsQuery(search: LogsSearch): BetterLogsQuery | null {
  if (!search.dask && !search.system) return null;
  return {
    ...(search.pattern.trim() ? { filter_pattern: search.pattern.trim() } : {}),
    ...(search.instance !== null ? { instance_ids: String(search.instance) } : {}),
    // Both sources is the default; naming one asks for it alone.
    ...(search.dask && !search.system ? { dask: true } : {}),
    ...(search.system && !search.dask ? { system: true } : {}),
  };
}

export function useLogsSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = React.useMemo(() => parseLogsSearch(searchParams), [searchParams]);
  const change = React.useCallback(
    (next: Partial<LogsSearch>) =>
      setSearchParams((current) => writeLogsSearch(current, next), { replace: true }),
    [setSearchParams],
  );
  return { search, change };
}
