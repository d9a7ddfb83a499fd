import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type CurrentUser = ApiData<'/api/v2/user/me', 'get'>;

export const getCurrentUser = (signal?: AbortSignal) => call(api.GET('/api/v2/user/me', { signal }));

/** The signed-in user. Never retried on 401 (that is the answer: the session is over). */
export function useCurrentUserQuery<TData = CurrentUser>(options: QueryOptions<CurrentUser, TData> = {}) {
  return useQuery({ queryKey: userKeys.me(), queryFn: ({ signal }) => getCurrentUser(signal), ...options });
}
