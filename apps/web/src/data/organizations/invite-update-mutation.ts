import { organizationKeys } from '@/data/organizations/keys';
import { refreshOrganization } from '@/data/organizations/refresh';
import { type Camelize, toWire } from '@/lib/api/camelize';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type UpdateInviteWire = ApiBody<'/api/v2/users/invites/organization-invite/{invite_id}', 'patch'>;
/** What the invitation grants once accepted: the role and the rows in the organization's workspaces. */
export type UpdateInviteBody = Camelize<UpdateInviteWire>;
type Variables = { organizationId: number; inviteId: number; body: UpdateInviteBody };

export const updateInvite = ({ inviteId, body }: Variables) =>
  call(
    api.PATCH('/api/v2/users/invites/organization-invite/{invite_id}', {
      params: { path: { invite_id: inviteId } },
      body: toWire<UpdateInviteWire>(body),
    }),
  );

export function useInviteUpdateMutation(options?: MutationOptions<typeof updateInvite>) {
  return useApiMutation(updateInvite, options, (queryClient, invite, { organizationId, inviteId }) => {
    queryClient.setQueryData(organizationKeys.invite(inviteId), invite);
    return refreshOrganization(queryClient, organizationId);
  });
}
