import { useQuery } from '@tanstack/react-query';

import { analyticsKeys, analyticsPath } from '@/data/analytics/keys';
import type { ClusterRef } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type ComputationDetail = ApiData<
  '/api/v2/analytics/{account}/cluster/{cluster}/computations/{computation}',
  'get'
>;
export type TaskGroup = ComputationDetail['taskGroups'][number];
export type TaskException = ComputationDetail['exceptions'][number];

export function fetchComputation(ref: ClusterRef, id: number, signal?: AbortSignal) {
  return call(
    api.GET('/api/v2/analytics/{account}/cluster/{cluster}/computations/{computation}', {
      params: { path: { ...analyticsPath(ref), computation: id } },
      signal,
    }),
  );
}

/** One computation with its task groups and the exceptions its tasks raised. */
export function useComputationQuery(
  { ref, id }: { ref: ClusterRef; id: number },
  options: { refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: analyticsKeys.computation(ref, id),
    queryFn: ({ signal }) => fetchComputation(ref, id, signal),
    ...options,
  });
}
