import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterStates = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/states', 'get'>;
export type StateRecord = ClusterStates[string][number];

/** Every state record of the cluster and its parts, by object type. */
export const getClusterStates = (ref: ClusterRef, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/account/{account}/id/{pk}/states', { params: clusterPath(ref), signal }));

/**
 * `at`: the cluster's current state as its page last read it (`ready@<updated>`). A new one is read
 * at once, so the history never lags behind the header (nor misses the last state once polling
 * stops); the previous history stays shown meanwhile.
 */
export function useClusterStatesQuery<TData = ClusterStates>(
  { ref, at }: { ref: ClusterRef; at?: string },
  options: QueryOptions<ClusterStates, TData> = {},
) {
  return useQuery({
    queryKey: [...clusterKeys.states(ref), at ?? null],
    queryFn: ({ signal }) => getClusterStates(ref, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}

/** The `at` of useClusterStatesQuery for a cluster as its page shows it. */
export const stateMark = (cluster: { currentState: { state: string; updated: string } }) =>
  `${cluster.currentState.state}@${cluster.currentState.updated}`;
