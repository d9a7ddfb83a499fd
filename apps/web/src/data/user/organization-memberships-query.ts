import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

export type OrganizationMembership = ApiData<'/api/v2/users/user/organization/memberships', 'get'>[number];

export const getOrganizationMemberships = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/users/user/organization/memberships', { signal }));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const organizationMembershipsQuery = () => ({
  queryKey: userKeys.organizationMemberships(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getOrganizationMemberships(signal),
  staleTime: SHELL_STALE_MS,
});

export function useOrganizationMembershipsQuery<TData = OrganizationMembership[]>(
  options: QueryOptions<OrganizationMembership[], TData> = {},
) {
  return useQuery({ ...organizationMembershipsQuery(), ...options });
}
