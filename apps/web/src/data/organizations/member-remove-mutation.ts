import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const removeMember = ({ membershipId }: { organizationId: number; membershipId: number }) =>
  call(
    api.DELETE('/api/v2/users/organizations/remove-membership/{membership_id}', {
      params: { path: { membership_id: membershipId } },
    }),
  );

export function useMemberRemoveMutation(options?: MutationOptions<typeof removeMember>) {
  return useApiMutation(removeMember, options, (queryClient, _answer, { organizationId }) =>
    refreshOrganization(queryClient, organizationId),
  );
}
