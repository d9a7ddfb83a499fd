import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { PaginateQuery } from '@/data/clusters/clusters-paginate-query';
import { PAGINATION_PARAMS } from '@/hooks/use-pagination-params';
import { DASHBOARD_TAB_PARAM } from '@/lib/clusters/links';
import { CLUSTER_STATES, isClusterState } from '@/lib/clusters/states';
import { DEFAULT_PAGE } from '@/lib/constants';
import { filtersText, invalidTermMessage, parseTerm, readFilters } from '@/lib/filter-terms';
import type { ScopeQuery } from '@/lib/scopes';
import { oneOf, param, readAs, searchParams } from '@/lib/search-params';
import { ACCOUNT_PARAM } from '@/lib/workspace';

// The Dashboard's URL state: `tab` (clusters by default, or
// jobs), then the clusters tab's `page` (default 0), `pagesize` (default 50), `filters` (a JSON list
// of key/value pairs) and the ordering (the jobs tab's are in features/batch/search-params.ts).
// Only defaults are left out of the URL, so a shared link shows the same page.

export const DASHBOARD_TABS = ['clusters', 'jobs'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export const readDashboardTab = (search: URLSearchParams): DashboardTab =>
  search.get(DASHBOARD_TAB_PARAM) === 'jobs' ? 'jobs' : 'clusters';

/** Another tab opens on its defaults: of the URL only the workspace (`account`) is kept. */
export function writeDashboardTab(search: URLSearchParams, tab: DashboardTab): URLSearchParams {
  const out = new URLSearchParams();
  const account = search.get(ACCOUNT_PARAM);
  if (account) out.set(ACCOUNT_PARAM, account);
  if (tab !== 'clusters') out.set(DASHBOARD_TAB_PARAM, tab);
  return out;
}

/** The Dashboard's Jobs tab, where members find their workspace's batch jobs. */

export const FILTER_KEYS = ['name', 'state', 'tag', 'mine'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filter = { key: FilterKey; value: string };

export const ORDER_FIELDS = ['created', 'name', 'state', 'updated'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
export type Direction = 'asc' | 'desc';
export const DEFAULT_ORDER: { orderBy: OrderField; direction: Direction } = {
  orderBy: 'created',
  direction: 'desc',
};

export type DashboardSearch = {
  page: number;
  pageSize: number;
  filters: Filter[];
  /** Why parts of the URL's filters were ignored ('{key} is not a valid search term'). */
  problems: string[];
  orderBy: OrderField;
  direction: Direction;
};

const MAX_VALUE_LENGTH = 100;
/** Keys that hold one value: a new one replaces the old. */
const SINGLE: ReadonlySet<FilterKey> = new Set(['name', 'mine']);

export { invalidTermMessage };

const invalidStateMessage = (value: string) =>
  `${value} is not a cluster state (${CLUSTER_STATES.join(', ')})`;

const isFilterKey = (key: string): key is FilterKey => (FILTER_KEYS as readonly string[]).includes(key);

/** A filter's value as the API will take it, or why it cannot be used. */
function checkFilter(key: string, rawValue: string): Filter | { problem: string } {
  if (!isFilterKey(key)) return { problem: invalidTermMessage(key) };
  const value = rawValue.trim().slice(0, MAX_VALUE_LENGTH);
  if (key === 'mine') return { key, value: 'true' };
  if (value === '') return { problem: `Give ${key} a value, like ${key}:${key === 'state' ? 'ready' : 'x'}` };
  if (key === 'state' && !isClusterState(value.toLowerCase())) return { problem: invalidStateMessage(value) };
  return { key, value: key === 'state' ? value.toLowerCase() : value };
}

/**
 * What the user typed in the filter bar: `state:ready`, `tag:team`, `tag:team:ml`, `name:etl`,
 * `mine`, or plain text (a part of the cluster's name).
 */
export function parseFilterTerm(term: string): Filter | { problem: string } | null {
  const text = term.trim();
  if (text === '') return null;
  if (text === 'mine') return { key: 'mine', value: 'true' };
  // Cluster names have no colon, so text with one names a key.
  return parseTerm(text, 'name', checkFilter);
}

/** Adds `filter`, replacing the old value of a single-valued key and ignoring a repeat. */
export function withFilter(filters: readonly Filter[], filter: Filter): Filter[] {
  if (SINGLE.has(filter.key)) return [...filters.filter((f) => f.key !== filter.key), filter];
  if (filters.some((f) => f.key === filter.key && f.value === filter.value)) return [...filters];
  return [...filters, filter];
}

const NO_FILTERS = { filters: [] as Filter[], problems: [] as string[] };

const dashboardParams = searchParams({
  ...PAGINATION_PARAMS,
  filtered: param(
    'filters',
    readAs((raw) => (raw ? readFilters(raw, { check: checkFilter, add: withFilter, max: 50 }) : NO_FILTERS)),
    NO_FILTERS,
    ({ filters }) => (filters.length ? filtersText(filters) : null),
  ),
  orderBy: param<OrderField>('order_by', oneOf(ORDER_FIELDS), DEFAULT_ORDER.orderBy),
  direction: param<Direction>('order_by_direction', oneOf(['asc', 'desc']), DEFAULT_ORDER.direction),
});

export function parseDashboardSearch(search: URLSearchParams): DashboardSearch {
  const { filtered, ...rest } = dashboardParams.parse(search);
  return { ...rest, ...filtered };
}

type Change = Partial<Pick<DashboardSearch, 'page' | 'pageSize' | 'filters' | 'orderBy' | 'direction'>>;

/** `search` with `change` applied; anything but a page change returns to the first page. */
export function writeDashboardSearch(search: URLSearchParams, change: Change): URLSearchParams {
  const { problems, filters, ...next } = { ...parseDashboardSearch(search), page: DEFAULT_PAGE, ...change };
  return dashboardParams.write(search, { ...next, filtered: { filters, problems } });
}

/** The `GET clusters/paginate` query for this URL state and scope (`scopeQuery(scope)`). */
export function paginateQuery(search: DashboardSearch, scope: ScopeQuery): PaginateQuery {
  const values = (key: FilterKey) => search.filters.filter((f) => f.key === key).map((f) => f.value);
  const [name] = values('name');
  const states = values('state');
  const tags = values('tag');
  return {
    ...scope,
    offset: search.page * search.pageSize,
    limit: search.pageSize,
    order_by: search.orderBy,
    order_by_direction: search.direction,
    ...(name ? { name } : {}),
    ...(states.length ? { state: states } : {}),
    ...(tags.length ? { tags } : {}),
    ...(values('mine').length ? { just_mine: true } : {}),
  };
}

/** The Dashboard's URL state and its setters (every change is a new history entry). */
export function useDashboardSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = React.useMemo(() => parseDashboardSearch(searchParams), [searchParams]);
  const change = React.useCallback(
    (next: Change) => setSearchParams((current) => writeDashboardSearch(current, next)),
    [setSearchParams],
  );
  return {
    search,
    setPage: (page: number) => change({ page }),
    setPageSize: (pageSize: number) => change({ pageSize }),
    setFilters: (filters: Filter[]) => change({ filters }),
    setOrder: (orderBy: OrderField, direction: Direction) => change({ orderBy, direction }),
  };
}
