import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { clusterKeys } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type PaginateQuery = NonNullable<paths['/api/v2/clusters/paginate']['get']['parameters']['query']>;
export type ClustersPage = ApiData<'/api/v2/clusters/paginate', 'get'>;
export type ClusterSummary = ClustersPage['items'][number];

/** One page of the Dashboard's list: `{items, count}` for the scope and filters. */
export const getClustersPage = (query: PaginateQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/paginate', { params: { query }, signal }));

/**
 * A page of the list. Fresh for 3 s: the page asked for as the Dashboard opened
 * (features/clusters/dashboard/prefetch.ts) is not asked again when the page mounts a moment later.
 */
export const clustersPageQuery = (query: PaginateQuery) => ({
  queryKey: clusterKeys.list(query),
  queryFn: ({ signal }: { signal: AbortSignal }) => getClustersPage(query, signal),
  staleTime: 3_000,
});

/** `query` null: the scope is not known yet. The previous page stays shown while the next loads. */
export function useClustersPaginateQuery<TData = ClustersPage>(
  { query }: { query: PaginateQuery | null },
  { enabled = true, ...options }: QueryOptions<ClustersPage, TData> = {},
) {
  return useQuery({
    ...clustersPageQuery(query ?? {}),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
