import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type OrganizationMembership = ApiData<'/api/v2/users/user/organization/memberships', 'get'>[number];

export const getOrganizationMemberships = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/users/user/organization/memberships', { signal }));

export function useOrganizationMembershipsQuery<TData = OrganizationMembership[]>(
  options: QueryOptions<OrganizationMembership[], TData> = {},
) {
  return useQuery({
    queryKey: userKeys.organizationMemberships(),
    queryFn: ({ signal }) => getOrganizationMemberships(signal),
    ...options,
  });
}
