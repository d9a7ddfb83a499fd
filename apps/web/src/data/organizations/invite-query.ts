import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** One pending invitation, with its rows in the organization's workspaces (the Edit Invite page). */
export type InviteDetails = ApiData<'/api/v2/users/invites/organization-invite/{invite_id}', 'get'>;

export const getInvite = (inviteId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/users/invites/organization-invite/{invite_id}', {
      params: { path: { invite_id: inviteId } },
      signal,
    }),
  );

/** `inviteId` null: not asked for (the page edits a member). */
export function useInviteQuery<TData = InviteDetails>(
  { inviteId }: { inviteId: number | null },
  { enabled = true, ...options }: QueryOptions<InviteDetails, TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.invite(inviteId ?? 0),
    queryFn: ({ signal }) => getInvite(inviteId ?? 0, signal),
    enabled: enabled && inviteId !== null,
    ...options,
  });
}
