import { useQuery } from '@tanstack/react-query';

import { analyticsKeys, analyticsPath } from '@/data/analytics/keys';
import type { ClusterRef } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type Computation = ApiData<
  '/api/v2/analytics/{account}/cluster/{cluster}/computations/list',
  'get'
>[number];

/** The newest computations shown (the call pages; a cluster page shows the latest ones). */
export const COMPUTATIONS_SHOWN = 50;

export function fetchComputations(ref: ClusterRef, signal?: AbortSignal) {
  return call(
    api.GET('/api/v2/analytics/{account}/cluster/{cluster}/computations/list', {
      params: { path: analyticsPath(ref), query: { limit: COMPUTATIONS_SHOWN } },
      signal,
    }),
  );
}

/** The cluster's computations, newest first. */
export function useComputationsQuery(
  { ref }: { ref: ClusterRef },
  options: { refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: analyticsKeys.computations(ref),
    queryFn: ({ signal }) => fetchComputations(ref, signal),
    ...options,
  });
}
