import type { paths } from '@cumulus/api';
import { useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

type Suggestions = { items: string[]; count: number };

/** The filters the interactions list takes, starting with the text. */
export const getInteractionKeys = (query: string, signal?: AbortSignal) =>
  call(api.GET('/api/v2/interactions/user-interactions/keys', { params: { query: { query } }, signal }));

export function useInteractionKeysQuery<TData = Suggestions>(
  { query }: { query: string },
  options: QueryOptions<Suggestions, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.interactionKeys(query),
    queryFn: ({ signal }) => getInteractionKeys(query, signal),
    staleTime: Number.POSITIVE_INFINITY,
    ...options,
  });
}

/** The filters `key/values` suggests values for. */
export type ValueKey = NonNullable<
  paths['/api/v2/interactions/user-interactions/key/values']['get']['parameters']['query']
>['key'];

/** Values a filter takes among recorded interactions, starting with the text. */
export const getInteractionValues = (key: ValueKey, startsWith: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/interactions/user-interactions/key/values', {
      params: { query: { key, starts_with: startsWith, limit: 20 } },
      signal,
    }),
  );

/** `key` null: the text is not at a value yet. */
export function useInteractionValuesQuery<TData = Suggestions>(
  { key, startsWith }: { key: ValueKey | null; startsWith: string },
  { enabled = true, ...options }: QueryOptions<Suggestions, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.interactionValues(key ?? '', startsWith),
    queryFn: ({ signal }) => getInteractionValues(key as ValueKey, startsWith, signal),
    enabled: enabled && key !== null,
    staleTime: 30_000,
    ...options,
  });
}
