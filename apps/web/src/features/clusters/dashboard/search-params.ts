import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { PaginateQuery } from '@/data/clusters/clusters-paginate-query';
import { readPagination } from '@/hooks/use-pagination-params';
import { DASHBOARD_TAB_PARAM } from '@/lib/clusters/links';
import { CLUSTER_STATES, isClusterState } from '@/lib/clusters/states';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/lib/constants';
import type { ScopeQuery } from '@/lib/scopes';
import { ACCOUNT_PARAM } from '@/lib/workspace';

// The Dashboard's URL state (console.md section 2, "URL is state"): `tab` (clusters by default, or
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

export const invalidTermMessage = (key: string) => `${key} is not a valid search term`;
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
  const colon = text.indexOf(':');
  // Cluster names have no colon, so text with one names a key.
  if (colon < 0) return checkFilter('name', text);
  return checkFilter(text.slice(0, colon).trim(), text.slice(colon + 1));
}

/** Adds `filter`, replacing the old value of a single-valued key and ignoring a repeat. */
export function withFilter(filters: readonly Filter[], filter: Filter): Filter[] {
  if (SINGLE.has(filter.key)) return [...filters.filter((f) => f.key !== filter.key), filter];
  if (filters.some((f) => f.key === filter.key && f.value === filter.value)) return [...filters];
  return [...filters, filter];
}

function readFilters(raw: string | null): { filters: Filter[]; problems: string[] } {
  if (!raw) return { filters: [], problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { filters: [], problems: ['The filters in this link could not be read.'] };
  }
  if (!Array.isArray(parsed))
    return { filters: [], problems: ['The filters in this link could not be read.'] };
  let filters: Filter[] = [];
  const problems: string[] = [];
  for (const entry of parsed.slice(0, 50)) {
    // A pair is ["key", "value"] or {"key": ..., "value": ...}.
    const [key, value] = Array.isArray(entry) ? entry : [entry?.key, entry?.value];
    if (typeof key !== 'string') continue;
    const checked = checkFilter(key, typeof value === 'string' ? value : String(value ?? ''));
    if ('problem' in checked) problems.push(checked.problem);
    else filters = withFilter(filters, checked);
  }
  return { filters, problems };
}

export function parseDashboardSearch(search: URLSearchParams): DashboardSearch {
  const orderBy = search.get('order_by');
  const direction = search.get('order_by_direction');
  return {
    ...readPagination(search),
    ...readFilters(search.get('filters')),
    orderBy: (ORDER_FIELDS as readonly string[]).includes(orderBy ?? '')
      ? (orderBy as OrderField)
      : DEFAULT_ORDER.orderBy,
    direction: direction === 'asc' || direction === 'desc' ? direction : DEFAULT_ORDER.direction,
  };
}

type Change = Partial<Pick<DashboardSearch, 'page' | 'pageSize' | 'filters' | 'orderBy' | 'direction'>>;

/** `search` with `change` applied; anything but a page change returns to the first page. */
export function writeDashboardSearch(search: URLSearchParams, change: Change): URLSearchParams {
  const current = parseDashboardSearch(search);
  const next = { ...current, page: DEFAULT_PAGE, ...change };
  const out = new URLSearchParams(search);
  const put = (name: string, value: string | number, fallback: string | number) => {
    if (value === fallback) out.delete(name);
    else out.set(name, String(value));
  };
  put('page', next.page, DEFAULT_PAGE);
  put('pagesize', next.pageSize, DEFAULT_PAGE_SIZE);
  put('filters', next.filters.length ? JSON.stringify(next.filters.map((f) => [f.key, f.value])) : '', '');
  put('order_by', next.orderBy, DEFAULT_ORDER.orderBy);
  put('order_by_direction', next.direction, DEFAULT_ORDER.direction);
  return out;
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
