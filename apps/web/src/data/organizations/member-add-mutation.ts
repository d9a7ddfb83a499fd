import { refreshOrganization } from '@/data/organizations/refresh';
import { type Camelize, toWire } from '@/lib/api/camelize';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type AddMemberWire = ApiBody<'/api/v2/users/organizations/add-membership', 'post'>;
/** Who (username or email), their role, and their rows in the organization's workspaces. */
export type AddMemberBody = Camelize<AddMemberWire>;

/**
 * A known user becomes a member (`membership`); an unknown email is invited (`invite`). 409
 * ALREADY_MEMBER carries `membership_id`, 409 ALREADY_INVITED `invite_id`.
 */
export const addMember = (body: AddMemberBody) =>
  call(api.POST('/api/v2/users/organizations/add-membership', { body: toWire<AddMemberWire>(body) }));

export function useMemberAddMutation(options?: MutationOptions<typeof addMember>) {
  return useApiMutation(addMember, options, (queryClient, _answer, body) =>
    refreshOrganization(queryClient, body.organizationId),
  );
}
