import * as React from 'react';
import { useSearchParams } from 'react-router';

import type { ScopedAliasQuery } from '@/data/software/aliases-query';
import { PAGINATION_PARAMS } from '@/hooks/use-pagination-params';
import { DEFAULT_PAGE } from '@/lib/constants';
import { filtersText, invalidTermMessage, parseTerm, readFilters } from '@/lib/filter-terms';
import type { ScopeQuery } from '@/lib/scopes';
import { oneOf, param, readAs, searchParams } from '@/lib/search-params';

// The Software list's URL state: `pagesize` (default 50), `page` (default
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

export { invalidTermMessage };

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
export const parseFilterTerm = (term: string): Filter | { problem: string } | null =>
  parseTerm(term, 'name', checkFilter);

/** Every key holds one value: a new one replaces the old. */
export const withFilter = (filters: readonly Filter[], filter: Filter): Filter[] => [
  ...filters.filter((f) => f.key !== filter.key),
  filter,
];

const softwareParams = searchParams({
  ...PAGINATION_PARAMS,
  // The default filters are left out of the URL; no filters at all is written as [].
  filtered: param(
    'filters',
    readAs((raw) =>
      readFilters(raw, { check: checkFilter, add: withFilter, max: 20, unreadable: DEFAULT_FILTERS }),
    ),
    { filters: DEFAULT_FILTERS, problems: [] as string[] },
    ({ filters }) => filtersText(filters),
  ),
  orderBy: param<OrderField>('order_by', oneOf(ORDER_FIELDS), DEFAULT_ORDER.orderBy),
  direction: param<Direction>('order_by_direction', oneOf(['asc', 'desc']), DEFAULT_ORDER.direction),
});

export function parseSoftwareSearch(search: URLSearchParams): SoftwareSearch {
  const { filtered, ...rest } = softwareParams.parse(search);
  return { ...rest, ...filtered };
}

type Change = Partial<Pick<SoftwareSearch, 'page' | 'pageSize' | 'filters' | 'orderBy' | 'direction'>>;

export function writeSoftwareSearch(search: URLSearchParams, change: Change): URLSearchParams {
  const { problems, filters, ...next } = { ...parseSoftwareSearch(search), page: DEFAULT_PAGE, ...change };
  return softwareParams.write(search, { ...next, filtered: { filters, problems } });
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
