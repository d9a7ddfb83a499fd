import { useQuery } from '@tanstack/react-query';

import { interactionKeys } from '@/data/interactions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allPages } from '@/lib/api/pages';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

export type InteractionType = ApiData<'/api/v1/interaction_types/', 'get'>['results'][number];

/** The notices the server knows, and whether each has expired. */
export const getInteractionTypes = (signal?: AbortSignal) =>
  allPages((page) => call(api.GET('/api/v1/interaction_types/', { params: { query: { page } }, signal })));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const interactionTypesQuery = () => ({
  queryKey: interactionKeys.types(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getInteractionTypes(signal),
  staleTime: SHELL_STALE_MS,
});

export function useInteractionTypesQuery<TData = InteractionType[]>(
  options: QueryOptions<InteractionType[], TData> = {},
) {
  return useQuery({ ...interactionTypesQuery(), ...options });
}
