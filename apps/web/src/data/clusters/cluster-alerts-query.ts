import { useQuery } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterAlert = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/alerts', 'get'>[number];

/** What went wrong: failed processes, a failed cluster (level 40 is an error). */
export const getClusterAlerts = (ref: ClusterRef, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/account/{account}/id/{pk}/alerts', { params: clusterPath(ref), signal }));

export function useClusterAlertsQuery<TData = ClusterAlert[]>(
  { ref }: { ref: ClusterRef },
  options: QueryOptions<ClusterAlert[], TData> = {},
) {
  return useQuery({
    queryKey: clusterKeys.alerts(ref),
    queryFn: ({ signal }) => getClusterAlerts(ref, signal),
    ...options,
  });
}
