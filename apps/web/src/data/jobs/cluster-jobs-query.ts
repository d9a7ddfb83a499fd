import { useQuery } from '@tanstack/react-query';

import { jobKeys } from '@/data/jobs/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterJob = ApiData<'/api/v2/jobs/cluster/{cluster_id}', 'get'>[number];

/** The batch jobs a cluster runs (none for a cluster started for Dask). */
export const getClusterJobs = (clusterId: number, signal?: AbortSignal) =>
  call(api.GET('/api/v2/jobs/cluster/{cluster_id}', { params: { path: { cluster_id: clusterId } }, signal }));

export function useClusterJobsQuery<TData = ClusterJob[]>(
  { clusterId }: { clusterId: number },
  options: QueryOptions<ClusterJob[], TData> = {},
) {
  return useQuery({
    queryKey: jobKeys.ofCluster(clusterId),
    queryFn: ({ signal }) => getClusterJobs(clusterId, signal),
    ...options,
  });
}
