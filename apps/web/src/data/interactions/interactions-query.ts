import { useQuery } from '@tanstack/react-query';

import { interactionKeys } from '@/data/interactions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allPages } from '@/lib/api/pages';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

export type Interaction = ApiData<'/api/v1/interactions/', 'get'>['results'][number];

/** The notices the user has seen. */
export const getInteractions = (signal?: AbortSignal) =>
  allPages((page) => call(api.GET('/api/v1/interactions/', { params: { query: { page } }, signal })));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const interactionsQuery = () => ({
  queryKey: interactionKeys.list(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getInteractions(signal),
  staleTime: SHELL_STALE_MS,
});

export function useInteractionsQuery<TData = Interaction[]>(
  options: QueryOptions<Interaction[], TData> = {},
) {
  return useQuery({ ...interactionsQuery(), ...options });
}
