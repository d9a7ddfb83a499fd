import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type UserInteractionsQuery = NonNullable<
  paths['/api/v2/interactions/user-interactions']['get']['parameters']['query']
>;
export type UserInteractions = ApiData<'/api/v2/interactions/user-interactions', 'get'>;
export type UserInteraction = UserInteractions['items'][number];

/** What users did (the Python client's and the console's reports), newest first, filtered. */
export const getUserInteractions = (query: UserInteractionsQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/interactions/user-interactions', { params: { query }, signal }));

export function useUserInteractionsQuery<TData = UserInteractions>(
  query: UserInteractionsQuery,
  options: QueryOptions<UserInteractions, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.interactions(query),
    queryFn: ({ signal }) => getUserInteractions(query, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}

export type InteractionsHello = ApiData<'/api/v2/interactions/user-interactions/hello', 'get'>;

/** How many interactions there are, and how many failed in the last day. */
export const getInteractionsHello = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/interactions/user-interactions/hello', { signal }));

export function useInteractionsHelloQuery<TData = InteractionsHello>(
  options: QueryOptions<InteractionsHello, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.interactionsHello(),
    queryFn: ({ signal }) => getInteractionsHello(signal),
    ...options,
  });
}
