import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

type Query = { seen: boolean; offset: number; limit: number };
export type AttentionClusters = ApiData<'/api/v2/staff/clusters', 'get'>;
export type AttentionCluster = AttentionClusters['items'][number];

/** Failed clusters staff have not marked seen (or, `seen`, those they have). */
export const getAttentionClusters = (query: Query, signal?: AbortSignal) =>
  call(api.GET('/api/v2/staff/clusters', { params: { query }, signal }));

export function useAttentionClustersQuery<TData = AttentionClusters>(
  query: Query,
  options: QueryOptions<AttentionClusters, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.attentionList(query),
    queryFn: ({ signal }) => getAttentionClusters(query, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}
