import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** A workspace the user belongs to: `account` {id, slug, name...}, isAdmin, isDefaultAccount. */
export type WorkspaceMembership = ApiData<'/api/v2/user/me/memberships', 'get'>[number];

export const getWorkspaceMemberships = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/user/me/memberships', { signal }));

export function useWorkspaceMembershipsQuery<TData = WorkspaceMembership[]>(
  options: QueryOptions<WorkspaceMembership[], TData> = {},
) {
  return useQuery({
    queryKey: userKeys.workspaceMemberships(),
    queryFn: ({ signal }) => getWorkspaceMemberships(signal),
    ...options,
  });
}
