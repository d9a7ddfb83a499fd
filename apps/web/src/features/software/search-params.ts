import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { ScopedAliasQuery } from '@/data/software/aliases-query';
import { readPagination } from '@/hooks/use-pagination-params';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/lib/constants';
import type { ScopeQuery } from '@/lib/scopes';

// The Software list's URL state (console.md section 2): `pagesize` (default 50), `page` (default
// 0), `filters` (a JSON list of key/value pairs; by default package_sync False) and the order.

export const FILTER_KEYS = ['name', 'package_sync', 'status', 'creator'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type Filter = { key: FilterKey; value: string };
export const BUILD_STATUSES = ['queued', 'building', 'built', 'error'] as const;

export const ORDER_FIELDS = ['name', 'package_sync', 'status', 'updated'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];
export type Direction = 'asc' | 'desc';
const DEFAULT_ORDER = { orderBy: 'updated' as OrderField, direction: 'desc' as Direction };
/** Environments made by package sync are many and alike: hidden until asked for. */
export const DEFAULT_FILTERS: Filter[] = [{ key: 'package_sync', value: 'False' }];

export type SoftwareSearch = {
  page: number;
  pageSize: number;
  filters: Filter[];
  problems: string[];
  orderBy: OrderField;
  direction: Direction;
};

export const invalidTermMessage = (key: string) => `${key} is not a valid search term`;
const isFilterKey = (key: string): key is FilterKey => (FILTER_KEYS as readonly string[]).includes(key);

function checkFilter(key: string, raw: string): Filter | { problem: string } {
  if (!isFilterKey(key)) return { problem: invalidTermMessage(key) };
  const value = raw.trim().slice(0, 100);
  if (value === '')
    return { problem: `Give ${key} a value, like ${key}:${key === 'status' ? 'built' : 'x'}` };
  if (key === 'package_sync') {
    const yes = /^(true|yes|1)$/i.test(value);
    const no = /^(false|no|0)$/i.test(value);
    if (!yes && !no) return { problem: 'package_sync is True or False' };
    return { key, value: yes ? 'True' : 'False' };
  }
  if (key === 'status' && !(BUILD_STATUSES as readonly string[]).includes(value.toLowerCase()))
    return { problem: `${value} is not a build status (${BUILD_STATUSES.join(', ')})` };
  return { key, value: key === 'status' ? value.toLowerCase() : value };
}

/** `status:built`, `package_sync:True`, `creator:ada`, `name:etl`, or plain text (part of a name). */
export function parseFilterTerm(term: string): Filter | { problem: string } | null {
  const text = term.trim();
  if (text === '') return null;
  const colon = text.indexOf(':');
  if (colon < 0) return checkFilter('name', text);
  return checkFilter(text.slice(0, colon).trim(), text.slice(colon + 1));
}

/** Every key holds one value: a new one replaces the old. */
export const withFilter = (filters: readonly Filter[], filter: Filter): Filter[] => [
  ...filters.filter((f) => f.key !== filter.key),
  filter,
];

function readFilters(raw: string | null): { filters: Filter[]; problems: string[] } {
  if (raw === null) return { filters: DEFAULT_FILTERS, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { filters: DEFAULT_FILTERS, problems: ['The filters in this link could not be read.'] };
  }
  if (!Array.isArray(parsed))
    return { filters: DEFAULT_FILTERS, problems: ['The filters in this link could not be read.'] };
  let filters: Filter[] = [];
  const problems: string[] = [];
  for (const entry of parsed.slice(0, 20)) {
    const [key, value] = Array.isArray(entry) ? entry : [entry?.key, entry?.value];
    if (typeof key !== 'string') continue;
    const checked = checkFilter(key, typeof value === 'string' ? value : String(value ?? ''));
    if ('problem' in checked) problems.push(checked.problem);
    else filters = withFilter(filters, checked);
  }
  return { filters, problems };
}

export function parseSoftwareSearch(search: URLSearchParams): SoftwareSearch {
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

type Change = Partial<Pick<SoftwareSearch, 'page' | 'pageSize' | 'filters' | 'orderBy' | 'direction'>>;

const sameFilters = (a: readonly Filter[], b: readonly Filter[]) =>
  JSON.stringify(a.map((f) => [f.key, f.value])) === JSON.stringify(b.map((f) => [f.key, f.value]));

export function writeSoftwareSearch(search: URLSearchParams, change: Change): URLSearchParams {
  const next = { ...parseSoftwareSearch(search), page: DEFAULT_PAGE, ...change };
  const out = new URLSearchParams(search);
  const put = (name: string, value: string | number, fallback: string | number) => {
    if (value === fallback) out.delete(name);
    else out.set(name, String(value));
  };
  put('page', next.page, DEFAULT_PAGE);
  put('pagesize', next.pageSize, DEFAULT_PAGE_SIZE);
  // The default filters are left out of the URL; no filters at all is written as [].
  if (sameFilters(next.filters, DEFAULT_FILTERS)) out.delete('filters');
  else out.set('filters', JSON.stringify(next.filters.map((f) => [f.key, f.value])));
  put('order_by', next.orderBy, DEFAULT_ORDER.orderBy);
  put('order_by_direction', next.direction, DEFAULT_ORDER.direction);
  return out;
}

/** The `GET software-environment/alias` query for this URL state and scope. */
export function aliasesQuery(search: SoftwareSearch, scope: ScopeQuery): ScopedAliasQuery {
  const value = (key: FilterKey) => search.filters.find((f) => f.key === key)?.value;
  const packageSync = value('package_sync');
  const status = value('status') as ScopedAliasQuery['status'];
  return {
    ...scope,
    offset: search.page * search.pageSize,
    limit: search.pageSize,
    order_by: search.orderBy,
    order_by_direction: search.direction,
    ...(value('name') ? { name: value('name') } : {}),
    ...(packageSync ? { package_sync: packageSync === 'True' } : {}),
    ...(status ? { status } : {}),
    ...(value('creator') ? { creator: value('creator') } : {}),
  };
}

export function useSoftwareSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = React.useMemo(() => parseSoftwareSearch(searchParams), [searchParams]);
  const change = React.useCallback(
    (next: Change) => setSearchParams((current) => writeSoftwareSearch(current, next)),
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
