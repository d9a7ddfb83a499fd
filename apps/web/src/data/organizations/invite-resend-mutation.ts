import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Mails the invitation again. */
export const resendInvite = ({ inviteId }: { organizationId: number; inviteId: number }) =>
  call(
    api.POST('/api/v2/users/invites/organization-invite-resend/{invite_id}', {
      params: { path: { invite_id: inviteId } },
    }),
  );

export function useInviteResendMutation(options?: MutationOptions<typeof resendInvite>) {
  return useApiMutation(resendInvite, options, (queryClient, _answer, { organizationId }) =>
    refreshOrganization(queryClient, organizationId),
  );
}
