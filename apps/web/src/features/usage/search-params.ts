import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { UsageGroupBy, UsagePeriod, UsageQuery, UsageUnit } from '@/data/usage/usage-query';
import { isGroupBy, isPeriod, isUnit } from '@/features/usage/units';
import type { Scope } from '@/lib/scopes';

// The Usage page's URL state: `unit` (default credits), `period` (default day), `groupby` (none),
// `tag` (the tag grouped by), `start` and `end` (YYYY-MM-DD, default the 30 days ending today UTC).
// Defaults stay out of the URL.

export type UsageSearch = {
  unit: UsageUnit;
  period: UsagePeriod;
  groupBy: UsageGroupBy | null;
  tag: string;
  start: string;
  end: string;
};

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The default range: 30 days ending today (UTC). */
export function defaultRange(now = Date.now()): { start: string; end: string } {
  return { start: utcDate(now - 29 * DAY_MS), end: utcDate(now) };
}

export function parseUsageSearch(search: URLSearchParams, now = Date.now()): UsageSearch {
  const unit = search.get('unit');
  const period = search.get('period');
  const groupBy = search.get('groupby');
  const start = search.get('start');
  const end = search.get('end');
  const range = defaultRange(now);
  return {
    unit: isUnit(unit) ? unit : 'credits',
    period: isPeriod(period) ? period : 'day',
    groupBy: isGroupBy(groupBy) ? groupBy : null,
    tag: search.get('tag')?.trim() ?? '',
    start: start && DATE.test(start) ? start : range.start,
    end: end && DATE.test(end) ? end : range.end,
  };
}

/** `search` with `change` applied; defaults are left out, other parameters kept. */
export function writeUsageSearch(
  search: URLSearchParams,
  change: Partial<UsageSearch>,
  now = Date.now(),
): URLSearchParams {
  const next = { ...parseUsageSearch(search, now), ...change };
  const range = defaultRange(now);
  const out = new URLSearchParams(search);
  const put = (name: string, value: string | null, fallback: string | null) => {
    if (value === null || value === fallback || value === '') out.delete(name);
    else out.set(name, value);
  };
  put('unit', next.unit, 'credits');
  put('period', next.period, 'day');
  put('groupby', next.groupBy, null);
  put('tag', next.groupBy === 'tag' ? next.tag : null, null);
  put('start', next.start, range.start);
  put('end', next.end, range.end);
  return out;
}

/** The scope as the usage call's group filters: one workspace or one organization, else none. */
export function scopeFilters(scope: Scope | null | undefined): string | undefined {
  if (scope?.id === null || scope?.id === undefined) return undefined;
  if (scope.type === 'account') return JSON.stringify({ account: [String(scope.id)] });
  if (scope.type === 'organization') return JSON.stringify({ organization: [String(scope.id)] });
  return undefined;
}

/** The `GET usage/` query for this URL state in the console's current scope. */
export function usageQuery(search: UsageSearch, scope: Scope | null | undefined): UsageQuery {
  const filters = scopeFilters(scope);
  return {
    unit: search.unit,
    start: search.start,
    end: search.end,
    period: search.period,
    ...(search.groupBy ? { groupby: search.groupBy } : {}),
    ...(search.groupBy === 'tag' && search.tag ? { groupby_tag: search.tag } : {}),
    ...(filters ? { group_filters: filters } : {}),
  };
}

export function useUsageSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = React.useMemo(() => parseUsageSearch(searchParams), [searchParams]);
  const change = React.useCallback(
    (next: Partial<UsageSearch>) => setSearchParams((current) => writeUsageSearch(current, next)),
    [setSearchParams],
  );
  return { search, change };
}
