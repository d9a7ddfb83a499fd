import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Accepts an invitation link's invitation for the signed-in user (the link opened while signed in). */
export const acceptInvite = ({ token }: { token: string }) =>
  call(api.POST('/api/v2/users/invites/token/{token}/accept', { params: { path: { token } } }));

export function useInviteAcceptMutation(options?: MutationOptions<typeof acceptInvite>) {
  // Joining changes the user's organizations, workspaces and scope: read everything again.
  return useApiMutation(acceptInvite, options, (queryClient) => queryClient.invalidateQueries());
}
