import { useQuery } from '@tanstack/react-query';

import { analyticsKeys, analyticsPath } from '@/data/analytics/keys';
import type { ClusterRef } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type Progress = ApiData<'/api/v2/analytics/{account}/cluster/{cluster}/progress', 'get'>;
export type RunningComputation = Progress['computations'][number];

/** How often the progress view looks again: the scheduler reports every few seconds. */
export const PROGRESS_POLL_MS = 2_000;

export function fetchProgress(ref: ClusterRef, signal?: AbortSignal) {
  return call(
    api.GET('/api/v2/analytics/{account}/cluster/{cluster}/progress', {
      params: { path: analyticsPath(ref) },
      signal,
    }),
  );
}

/** What the cluster computes now: running computations and their task groups' done/total. */
export function useProgressQuery(
  { ref }: { ref: ClusterRef },
  options: { refetchInterval?: number | false; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: analyticsKeys.progress(ref),
    queryFn: ({ signal }) => fetchProgress(ref, signal),
    ...options,
  });
}
