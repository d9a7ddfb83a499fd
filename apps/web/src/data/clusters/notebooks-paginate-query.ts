import { keepPreviousData, useQuery } from '@tanstack/react-query';

import type { ClustersPage, PaginateQuery } from '@/data/clusters/clusters-paginate-query';
import { clusterKeys } from '@/data/clusters/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** One page of notebook clusters (tagged `cumulus-cluster-type: notebook`), as `paginate` answers. */
export const getNotebooksPage = (query: PaginateQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/paginate-notebook', { params: { query }, signal }));

/** `query` null: the scope is not known yet. */
export function useNotebooksPaginateQuery<TData = ClustersPage>(
  { query }: { query: PaginateQuery | null },
  { enabled = true, ...options }: QueryOptions<ClustersPage, TData> = {},
) {
  return useQuery({
    queryKey: clusterKeys.notebooks(query ?? {}),
    queryFn: ({ signal }) => getNotebooksPage(query ?? {}, signal),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
