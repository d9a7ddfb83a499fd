import { useQuery } from '@tanstack/react-query';

import { softwareKeys } from '@/data/software/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type WorkspaceAliases = ApiData<'/api/v2/software-environment/account/{account}/alias', 'get'>;

/** The named environments of one workspace (package-synced ones left out): what a cluster can run on. */
export const getWorkspaceAliases = (account: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/alias', {
      params: { path: { account }, query: { limit: 500, include_package_sync: false } },
      signal,
    }),
  );

export function useWorkspaceAliasesQuery<TData = WorkspaceAliases>(
  account: string,
  options: QueryOptions<WorkspaceAliases, TData> = {},
) {
  return useQuery({
    queryKey: softwareKeys.workspace(account),
    queryFn: ({ signal }) => getWorkspaceAliases(account, signal),
    ...options,
  });
}
