import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '@/lib/constants';
import { param, searchParams, wholeNumber } from '@/lib/search-params';

const MAX_PAGE_SIZE = 1_000;

/** `page` (from 0) and `pagesize` (default 50) of a query string; invalid values give the defaults. */
export const PAGINATION_PARAMS = {
  page: param('page', wholeNumber(), DEFAULT_PAGE),
  pageSize: param('pagesize', wholeNumber({ min: 1, max: MAX_PAGE_SIZE }), DEFAULT_PAGE_SIZE),
};
const pagination = searchParams(PAGINATION_PARAMS);

export const readPagination = (search: URLSearchParams): { page: number; pageSize: number } =>
  pagination.parse(search);

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
