import { useQuery } from '@tanstack/react-query';

import { clusterKeys } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type AccountOptions = ApiData<'/api/v2/user/account/{account}/options', 'get'>;

/** The workspace's backend: what it is, what it can do (`capabilities.builds`), and the caller's limits. */
export const getAccountOptions = (account: string, signal?: AbortSignal) =>
  call(api.GET('/api/v2/user/account/{account}/options', { params: { path: { account } }, signal }));

export function useAccountOptionsQuery<TData = AccountOptions>(
  { account }: { account: string },
  { enabled = true, ...options }: QueryOptions<AccountOptions, TData> = {},
) {
  return useQuery({
    queryKey: clusterKeys.accountOptions(account),
    queryFn: ({ signal }) => getAccountOptions(account, signal),
    enabled: enabled && account !== '',
    staleTime: 5 * 60_000,
    ...options,
  });
}
