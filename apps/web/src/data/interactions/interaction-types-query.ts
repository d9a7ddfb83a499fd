import { useQuery } from '@tanstack/react-query';

import { interactionKeys } from '@/data/interactions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allPages } from '@/lib/api/pages';

export type InteractionType = ApiData<'/api/v1/interaction_types/', 'get'>['results'][number];

/** The notices the server knows, and whether each has expired. */
export const getInteractionTypes = (signal?: AbortSignal) =>
  allPages((page) => call(api.GET('/api/v1/interaction_types/', { params: { query: { page } }, signal })));

export function useInteractionTypesQuery<TData = InteractionType[]>(
  options: QueryOptions<InteractionType[], TData> = {},
) {
  return useQuery({
    queryKey: interactionKeys.types(),
    queryFn: ({ signal }) => getInteractionTypes(signal),
    ...options,
  });
}
