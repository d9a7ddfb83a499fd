import { organizationKeys } from '@/data/organizations/keys';
import { refreshOrganization } from '@/data/organizations/refresh';
import { type Camelize, toWire } from '@/lib/api/camelize';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type UpdateMemberWire = ApiBody<'/api/v2/users/organizations/update-membership/{membership_id}', 'patch'>;
/** A member's role and rows in the organization's workspaces (a row with `id` is changed, others added). */
export type UpdateMemberBody = Camelize<UpdateMemberWire>;
type Variables = { organizationId: number; membershipId: number; body: UpdateMemberBody };

export const updateMember = ({ membershipId, body }: Variables) =>
  call(
    api.PATCH('/api/v2/users/organizations/update-membership/{membership_id}', {
      params: { path: { membership_id: membershipId } },
      body: toWire<UpdateMemberWire>(body),
    }),
  );

export function useMemberUpdateMutation(options?: MutationOptions<typeof updateMember>) {
  return useApiMutation(
    updateMember,
    options,
    (queryClient, membership, { organizationId, membershipId }) => {
      queryClient.setQueryData(organizationKeys.membership(membershipId), membership);
      return refreshOrganization(queryClient, organizationId);
    },
  );
}
