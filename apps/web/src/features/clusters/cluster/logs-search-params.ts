import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { BetterLogsQuery } from '@/data/clusters/cluster-logs-query';
import { param, readAs, searchParams, text, wholeNumber } from '@/lib/search-params';

// The Logs tab's URL state: `q` (a filter pattern), `instance` (one instance's id), and `dask=0`
// / `system=0` to hide either source. Defaults stay out of the URL.

export type LogsSearch = {
  pattern: string;
  instance: number | null;
  dask: boolean;
  system: boolean;
};

const MAX_PATTERN = 500;

/** A source is shown unless `=0`. */
const shown = (name: string) =>
  param(
    name,
    readAs((raw) => raw !== '0'),
    true,
    (on) => (on ? null : '0'),
  );

const logsParams = searchParams({
  pattern: param('q', text(MAX_PATTERN), '', (pattern) =>
    pattern.trim() ? pattern.slice(0, MAX_PATTERN) : null,
  ),
  instance: param<number | null>('instance', wholeNumber({ min: 1, digits: 10 }), null),
  dask: shown('dask'),
  system: shown('system'),
});

export const parseLogsSearch = (search: URLSearchParams): LogsSearch => logsParams.parse(search);

/** The query string for `change` on top of `search` (other parameters, like `account`, are kept). */
export const writeLogsSearch = (search: URLSearchParams, change: Partial<LogsSearch>): URLSearchParams =>
  logsParams.write(search, { ...parseLogsSearch(search), ...change });

/** `instance=7` and friends, for links into the Logs tab. */
export const logsSearch = (change: Partial<LogsSearch>) =>
  writeLogsSearch(new URLSearchParams(), change).toString();

/**
 * The better-logs filters for this state, or null when both sources are
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
