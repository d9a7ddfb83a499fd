import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

export type CurrentUser = ApiData<'/api/v2/user/me', 'get'>;

export const getCurrentUser = (signal?: AbortSignal) => call(api.GET('/api/v2/user/me', { signal }));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const currentUserQuery = () => ({
  queryKey: userKeys.me(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getCurrentUser(signal),
  staleTime: SHELL_STALE_MS,
});

/** The signed-in user. Never retried on 401 (that is the answer: the session is over). */
export function useCurrentUserQuery<TData = CurrentUser>(options: QueryOptions<CurrentUser, TData> = {}) {
  return useQuery({ ...currentUserQuery(), ...options });
}
