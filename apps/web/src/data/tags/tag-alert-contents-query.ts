import { useQuery } from '@tanstack/react-query';

import { tagKeys } from '@/data/tags/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type TagAlerts = ApiData<'/api/v2/tags/alert-contents', 'get'>;
export type TagAlert = TagAlerts['items'][number];

/** Alerts of the caller's clusters carrying `tags` (`key` or `key:value`, comma separated). */
export const getTagAlertContents = (tags: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/tags/alert-contents', {
      params: { query: { ...(tags ? { tags } : {}), limit: 100 } },
      signal,
    }),
  );

export function useTagAlertContentsQuery<TData = TagAlerts>(
  { tags }: { tags: string },
  options: QueryOptions<TagAlerts, TData> = {},
) {
  return useQuery({
    queryKey: tagKeys.alertContents(tags),
    queryFn: ({ signal }) => getTagAlertContents(tags, signal),
    ...options,
  });
}
