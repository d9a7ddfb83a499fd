import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allItems } from '@/lib/api/pages';

export type OrganizationMember = ApiData<
  '/api/v2/users/organizations/members/{organization_id}',
  'get'
>['items'][number];

/** Every member of the organization, with their workspaces. */
export const getOrganizationMembers = (organizationId: number, signal?: AbortSignal) =>
  allItems((page) =>
    call(
      api.GET('/api/v2/users/organizations/members/{organization_id}', {
        params: { path: { organization_id: organizationId }, query: page },
        signal,
      }),
    ),
  );

export function useOrganizationMembersQuery<TData = OrganizationMember[]>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<OrganizationMember[], TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.members(organizationId ?? 0),
    queryFn: ({ signal }) => getOrganizationMembers(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
