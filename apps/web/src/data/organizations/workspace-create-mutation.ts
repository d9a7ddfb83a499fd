import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** A new workspace in the organization; its creator is its admin. */
export const createWorkspace = ({ organizationId, name }: { organizationId: number; name: string }) =>
  call(api.POST('/api/v2/users/workspaces/', { body: { name, organization_id: organizationId } }));

export function useWorkspaceCreateMutation(options?: MutationOptions<typeof createWorkspace>) {
  return useApiMutation(createWorkspace, options, (queryClient, _workspace, { organizationId }) =>
    refreshOrganization(queryClient, organizationId),
  );
}
