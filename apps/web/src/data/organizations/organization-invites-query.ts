import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allItems } from '@/lib/api/pages';

export type OrganizationInvite = ApiData<
  '/api/v2/users/invites/organization/{organization_id}',
  'get'
>['items'][number];

/** The organization's pending invitations, with the workspaces each grants. */
export const getOrganizationInvites = (organizationId: number, signal?: AbortSignal) =>
  allItems((page) =>
    call(
      api.GET('/api/v2/users/invites/organization/{organization_id}', {
        params: { path: { organization_id: organizationId }, query: page },
        signal,
      }),
    ),
  );

export function useOrganizationInvitesQuery<TData = OrganizationInvite[]>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<OrganizationInvite[], TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.invites(organizationId ?? 0),
    queryFn: ({ signal }) => getOrganizationInvites(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
