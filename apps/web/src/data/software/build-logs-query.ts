import { type InfiniteData, useInfiniteQuery } from '@tanstack/react-query';

import { type BuildRef, softwareKeys } from '@/data/software/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type BuildLogsPage = ApiData<'/api/v2/software-environment/account/{account}/build/logs/{id}', 'get'>;
export type BuildLogEvent = BuildLogsPage['events'][number];

/** Lines a page of the Build Logs grid asks for (a buffer of 1000 rows). */
export const LOG_PAGE = 1000;

export const getBuildLogs = (
  { account, id }: BuildRef,
  pageToken: string | undefined,
  signal?: AbortSignal,
) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/build/logs/{id}', {
      params: { path: { account, id }, query: { limit: LOG_PAGE, ...(pageToken ? { pageToken } : {}) } },
      signal,
    }),
  );

/**
 * A build's log, paged by nextToken: the next page continues where the last ended, so polling
 * (every 3 s until the build ends) and scrolling fetch only new lines.
 */
export function useBuildLogsQuery(
  ref: BuildRef,
  { refetchInterval }: { refetchInterval?: number | false } = {},
) {
  return useInfiniteQuery<
    BuildLogsPage,
    Error,
    InfiniteData<BuildLogsPage>,
    readonly unknown[],
    string | undefined
  >({
    queryKey: softwareKeys.buildLogs(ref),
    queryFn: ({ pageParam, signal }) => getBuildLogs(ref, pageParam, signal),
    initialPageParam: undefined,
    // A page that came back full may have more behind it; a short one is the end for now.
    getNextPageParam: (last) => last.nextToken ?? undefined,
    refetchInterval,
  });
}
