import { useQuery } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterStates = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/states', 'get'>;
export type StateRecord = ClusterStates[string][number];

/** Every state record of the cluster and its parts, by object type. */
export const getClusterStates = (ref: ClusterRef, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/account/{account}/id/{pk}/states', { params: clusterPath(ref), signal }));

export function useClusterStatesQuery<TData = ClusterStates>(
  { ref }: { ref: ClusterRef },
  options: QueryOptions<ClusterStates, TData> = {},
) {
  return useQuery({
    queryKey: clusterKeys.states(ref),
    queryFn: ({ signal }) => getClusterStates(ref, signal),
    ...options,
  });
}
