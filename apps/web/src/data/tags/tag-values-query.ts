import { useQuery } from '@tanstack/react-query';

import { type TagScope, tagKeys } from '@/data/tags/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type TagValues = ApiData<'/api/v2/tags/values', 'get'>;

/** The values of tag `key` on the clusters of a scope, starting with `startsWith` (any case). */
export const getTagValues = (scope: TagScope, key: string, startsWith: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/tags/values', {
      params: { query: { ...scope, key, ...(startsWith ? { starts_with: startsWith } : {}), limit: 20 } },
      signal,
    }),
  );

export function useTagValuesQuery<TData = TagValues>(
  { scope, key, startsWith }: { scope: TagScope; key: string; startsWith: string },
  options: QueryOptions<TagValues, TData> = {},
) {
  return useQuery({
    queryKey: tagKeys.values(scope, key, startsWith),
    queryFn: ({ signal }) => getTagValues(scope, key, startsWith, signal),
    staleTime: 30_000,
    ...options,
  });
}
