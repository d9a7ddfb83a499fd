import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type Variables = { organizationId: number; workspaceId: number; creditLimit: number };

/** A workspace's credit limit (`organizationId`: whose lists to refresh). */
export const updateWorkspaceCreditLimit = ({ workspaceId, creditLimit }: Variables) =>
  call(
    api.PATCH('/api/v2/users/workspaces/details/{workspace_id}', {
      params: { path: { workspace_id: workspaceId } },
      body: { credit_limit: creditLimit },
    }),
  );

export function useWorkspaceCreditLimitMutation(
  options?: MutationOptions<typeof updateWorkspaceCreditLimit>,
) {
  return useApiMutation(updateWorkspaceCreditLimit, options, (queryClient, _workspace, { organizationId }) =>
    refreshOrganization(queryClient, organizationId),
  );
}
