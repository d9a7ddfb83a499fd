import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Withdraws a pending invitation (its seat is free again). */
export const deleteInvite = ({ inviteId }: { organizationId: number; inviteId: number }) =>
  call(
    api.DELETE('/api/v2/users/invites/organization-invite/{invite_id}', {
      params: { path: { invite_id: inviteId } },
    }),
  );

export function useInviteDeleteMutation(options?: MutationOptions<typeof deleteInvite>) {
  return useApiMutation(deleteInvite, options, (queryClient, _answer, { organizationId }) =>
    refreshOrganization(queryClient, organizationId),
  );
}
