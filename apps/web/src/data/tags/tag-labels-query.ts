import { useQuery } from '@tanstack/react-query';

import { type TagScope, tagKeys } from '@/data/tags/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type TagLabels = ApiData<'/api/v2/tags/labels', 'get'>;

/** The tag keys users set on the clusters of a scope, starting with `startsWith` (any case). */
export const getTagLabels = (scope: TagScope, startsWith: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/tags/labels', {
      params: { query: { ...scope, ...(startsWith ? { starts_with: startsWith } : {}), limit: 20 } },
      signal,
    }),
  );

export function useTagLabelsQuery<TData = TagLabels>(
  { scope, startsWith }: { scope: TagScope; startsWith: string },
  options: QueryOptions<TagLabels, TData> = {},
) {
  return useQuery({
    queryKey: tagKeys.labels(scope, startsWith),
    queryFn: ({ signal }) => getTagLabels(scope, startsWith, signal),
    staleTime: 30_000,
    ...options,
  });
}
