import { useQuery } from '@tanstack/react-query';

import { interactionKeys } from '@/data/interactions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allPages } from '@/lib/api/pages';

export type Banner = ApiData<'/api/v1/banners', 'get'>['results'][number];

/** The server's announcements, shown above every page. */
export const getBanners = (signal?: AbortSignal) =>
  allPages((page) => call(api.GET('/api/v1/banners', { params: { query: { page } }, signal })));

export function useBannersQuery<TData = Banner[]>(options: QueryOptions<Banner[], TData> = {}) {
  return useQuery({
    queryKey: interactionKeys.banners(),
    queryFn: ({ signal }) => getBanners(signal),
    ...options,
  });
}
