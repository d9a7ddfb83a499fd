import { useQuery } from '@tanstack/react-query';

import { analyticsKeys, analyticsPath } from '@/data/analytics/keys';
import type { ClusterRef } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type Span = ApiData<'/api/v2/analytics/{account}/cluster/{cluster}/spans', 'get'>[number];

export function fetchSpans(ref: ClusterRef, signal?: AbortSignal) {
  return call(
    api.GET('/api/v2/analytics/{account}/cluster/{cluster}/spans', {
      params: { path: analyticsPath(ref), query: { limit: 100 } },
      signal,
    }),
  );
}

/** Spans of client work recorded on the cluster, newest first. */
export function useSpansQuery(
  { ref }: { ref: ClusterRef },
  options: { refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: analyticsKeys.spans(ref),
    queryFn: ({ signal }) => fetchSpans(ref, signal),
    ...options,
  });
}
