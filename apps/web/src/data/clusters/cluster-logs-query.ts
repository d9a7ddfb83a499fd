import type { paths } from '@cumulus/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { EMPTY_BUFFER, type LogBuffer, loadNewLines } from '@/data/clusters/log-buffer';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type LogLine = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/better-logs', 'get'>[number];
export type BetterLogsQuery = NonNullable<
  paths['/api/v2/clusters/account/{account}/id/{pk}/better-logs']['get']['parameters']['query']
>;

/** One better-logs call: lines oldest first, `since_ms` inclusive. */
export const getClusterLogs = (ref: ClusterRef, query: BetterLogsQuery, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/clusters/account/{account}/id/{pk}/better-logs', {
      params: { ...clusterPath(ref), query },
      signal,
    }),
  );

/**
 * A cluster's log lines for `query` (null: not yet), oldest first; every fetch adds what is new to
 * the buffer the cache holds, so a poll (`refetchInterval`) loads only the newest lines. A new
 * filter starts a new buffer (its own query key).
 */
export function useClusterLogsQuery<TData = LogBuffer>(
  { ref, query }: { ref: ClusterRef; query: BetterLogsQuery | null },
  { enabled = true, ...options }: QueryOptions<LogBuffer, TData> = {},
) {
  const queryClient = useQueryClient();
  const key = clusterKeys.logs(ref, query ?? {});
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      loadNewLines(
        (page) => getClusterLogs(ref, page, signal),
        query ?? {},
        queryClient.getQueryData<LogBuffer>(key) ?? EMPTY_BUFFER,
      ),
    enabled: enabled && query !== null,
    // Lines are appended to what the cache holds: never served stale from another mount.
    staleTime: 0,
    ...options,
  });
}
