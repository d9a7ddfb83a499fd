import type { QueryClient } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { scopeKeys } from '@/data/scopes/keys';
import { userKeys } from '@/data/user/keys';

/**
 * After a change in an organization: its lists (or, for a new organization, the searches that
 * should now find it), and what the shell and the scope picker know of the user's own
 * memberships, which a change to the user's own rows, or a new workspace, alters.
 */
export function refreshOrganization(queryClient: QueryClient, organizationId: number | null) {
  return Promise.all([
    organizationId === null
      ? null
      : queryClient.invalidateQueries({ queryKey: organizationKeys.organization(organizationId) }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.searches() }),
    queryClient.invalidateQueries({ queryKey: userKeys.workspaceMemberships() }),
    queryClient.invalidateQueries({ queryKey: userKeys.organizationMemberships() }),
    queryClient.invalidateQueries({ queryKey: scopeKeys.valid() }),
  ]);
}
