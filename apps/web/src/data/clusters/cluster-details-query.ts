import { useQuery } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterDetails = ApiData<'/api/v2/clusters/account/{account}/id/{pk}', 'get'>;
export type ClusterProcess = ClusterDetails['workers'][number];
export type ClusterInstance = NonNullable<ClusterProcess['instance']>;

/** A cluster's details, as established clients read them. */
export const getClusterDetails = (ref: ClusterRef, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/account/{account}/id/{pk}', { params: clusterPath(ref), signal }));

/** `ref` null: the cluster's workspace is not known yet. */
export function useClusterDetailsQuery<TData = ClusterDetails>(
  { ref }: { ref: ClusterRef | null },
  { enabled = true, ...options }: QueryOptions<ClusterDetails, TData> = {},
) {
  return useQuery({
    queryKey: ref ? clusterKeys.details(ref) : clusterKeys.unknownDetails(),
    queryFn: ({ signal }) => getClusterDetails(ref!, signal),
    enabled: enabled && ref !== null,
    ...options,
  });
}
