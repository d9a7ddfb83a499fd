import { useQuery } from '@tanstack/react-query';

import { clusterKeys } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ClusterFrontend = ApiData<'/api/v2/clusters/id/{pk}/frontend', 'get'>;

/** A cluster by id alone: its summary says which workspace it belongs to. */
export const getClusterFrontend = (id: number, signal?: AbortSignal) =>
  call(api.GET('/api/v2/clusters/id/{pk}/frontend', { params: { path: { pk: id } }, signal }));

export function useClusterFrontendQuery<TData = ClusterFrontend>(
  { id }: { id: number },
  { enabled = true, ...options }: QueryOptions<ClusterFrontend, TData> = {},
) {
  return useQuery({
    queryKey: clusterKeys.frontend(id),
    queryFn: ({ signal }) => getClusterFrontend(id, signal),
    enabled: enabled && Number.isSafeInteger(id) && id > 0,
    ...options,
  });
}
