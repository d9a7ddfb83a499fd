import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

/** A workspace the user belongs to: `account` {id, slug, name...}, isAdmin, isDefaultAccount. */
export type WorkspaceMembership = ApiData<'/api/v2/user/me/memberships', 'get'>[number];

export const getWorkspaceMemberships = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/user/me/memberships', { signal }));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const workspaceMembershipsQuery = () => ({
  queryKey: userKeys.workspaceMemberships(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getWorkspaceMemberships(signal),
  staleTime: SHELL_STALE_MS,
});

export function useWorkspaceMembershipsQuery<TData = WorkspaceMembership[]>(
  options: QueryOptions<WorkspaceMembership[], TData> = {},
) {
  return useQuery({ ...workspaceMembershipsQuery(), ...options });
}
