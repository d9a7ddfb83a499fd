import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/lib/constants';

const MAX_PAGE_SIZE = 1_000;

function parseInteger(raw: string | null, fallback: number, min: number, max: number): number {
  if (raw === null || !/^\d+$/.test(raw)) return fallback;
  const value = Number(raw);
  return value >= min && value <= max ? value : fallback;
}

/** `page` (from 0) and `pagesize` (default 50) of a query string; invalid values give the defaults. */
export function readPagination(searchParams: URLSearchParams): { page: number; pageSize: number } {
  return {
    page: parseInteger(searchParams.get('page'), DEFAULT_PAGE, 0, Number.MAX_SAFE_INTEGER),
    pageSize: parseInteger(searchParams.get('pagesize'), DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

/**
 * `page` (from 0) and `pagesize` (default 50) live in the query string, as the spec's list
 * pages require; invalid values fall back to the defaults. Changing the size returns to page 0.
 */
export function usePaginationParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { page, pageSize } = readPagination(searchParams);

  const setPage = useCallback(
    (next: number) =>
      setSearchParams((params) => {
        params.set('page', String(next));
        return params;
      }),
    [setSearchParams],
  );

  const setPageSize = useCallback(
    (next: number) =>
      setSearchParams((params) => {
        params.set('pagesize', String(next));
        params.set('page', String(DEFAULT_PAGE));
        return params;
      }),
    [setSearchParams],
  );

  return { page, pageSize, setPage, setPageSize };
}
