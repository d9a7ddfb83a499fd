import { useQuery } from '@tanstack/react-query';

import { apiTokenKeys } from '@/data/api-tokens/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allPages } from '@/lib/api/pages';

export type ApiToken = ApiData<'/api/v1/api-tokens/', 'get'>['results'][number];

/** Only active tokens (not expired, not revoked), newest first: a `select`. */
export function activeTokens(tokens: ApiToken[]): ApiToken[] {
  return tokens
    .filter((token) => !token.expired && !token.revoked)
    .sort((a, b) => new Date(b.created).getTime() - new Date(a.created).getTime());
}

/** Every token of the user, page by page. */
export const getApiTokens = (signal?: AbortSignal) =>
  allPages((page) => call(api.GET('/api/v1/api-tokens/', { params: { query: { page } }, signal })));

export function useApiTokensQuery<TData = ApiToken[]>(options: QueryOptions<ApiToken[], TData> = {}) {
  return useQuery({
    queryKey: apiTokenKeys.list(),
    queryFn: ({ signal }) => getApiTokens(signal),
    ...options,
  });
}
