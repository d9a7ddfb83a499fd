import { useQuery } from '@tanstack/react-query';

import { FLAG_POLL_MS } from '@/data/interactions/flags-query';
import { interactionKeys } from '@/data/interactions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** `{completed, data}`: the checklist's own record (steps no flag covers live in `data`). */
export type GetStarted = ApiData<'/api/v2/interactions/get-started', 'get'>;

export const getGetStarted = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/interactions/get-started', { signal }));

/** Polled like the flags (every 10 s): the server ticks steps as they happen. */
export function useGetStartedQuery<TData = GetStarted>(options: QueryOptions<GetStarted, TData> = {}) {
  return useQuery({
    queryKey: interactionKeys.getStarted(),
    queryFn: ({ signal }) => getGetStarted(signal),
    refetchInterval: FLAG_POLL_MS,
    ...options,
  });
}
