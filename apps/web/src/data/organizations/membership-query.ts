import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** One member of an organization, with their rows in its workspaces (the Edit Member page). */
export type Membership = ApiData<'/api/v2/users/organizations/membership/{membership_id}', 'get'>;

export const getMembership = (membershipId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/users/organizations/membership/{membership_id}', {
      params: { path: { membership_id: membershipId } },
      signal,
    }),
  );

/** `membershipId` null: not asked for (the page edits an invite). */
export function useMembershipQuery<TData = Membership>(
  { membershipId }: { membershipId: number | null },
  { enabled = true, ...options }: QueryOptions<Membership, TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.membership(membershipId ?? 0),
    queryFn: ({ signal }) => getMembership(membershipId ?? 0, signal),
    enabled: enabled && membershipId !== null,
    ...options,
  });
}
