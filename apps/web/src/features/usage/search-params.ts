import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { UsageGroupBy, UsagePeriod, UsageQuery, UsageUnit } from '@/data/usage/usage-query';
import { isGroupBy, isPeriod, isUnit } from '@/features/usage/units';
import type { Scope } from '@/lib/scopes';
import { accepted, param, readAs, searchParams } from '@/lib/search-params';

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
const DATE = accepted((value): value is string => /^\d{4}-\d{2}-\d{2}$/.test(value));
const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The default range: 30 days ending today (UTC). */
export function defaultRange(now = Date.now()): { start: string; end: string } {
  return { start: utcDate(now - 29 * DAY_MS), end: utcDate(now) };
}

/** The page's parameters; the default range depends on the day. */
function usageParams(now: number) {
  const range = defaultRange(now);
  return searchParams({
    unit: param<UsageUnit>('unit', accepted(isUnit), 'credits'),
    period: param<UsagePeriod>('period', accepted(isPeriod), 'day'),
    groupBy: param<UsageGroupBy | null>('groupby', accepted(isGroupBy), null),
    tag: param(
      'tag',
      readAs((raw) => raw.trim()),
      '',
    ),
    start: param('start', DATE, range.start),
    end: param('end', DATE, range.end),
  });
}

export const parseUsageSearch = (search: URLSearchParams, now = Date.now()): UsageSearch =>
  usageParams(now).parse(search);

/** `search` with `change` applied; defaults are left out, other parameters kept. */
export function writeUsageSearch(
  search: URLSearchParams,
  change: Partial<UsageSearch>,
  now = Date.now(),
): URLSearchParams {
  const next = { ...parseUsageSearch(search, now), ...change };
  // A tag is kept only while grouping by tag.
  return usageParams(now).write(search, { ...next, tag: next.groupBy === 'tag' ? next.tag : '' });
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
