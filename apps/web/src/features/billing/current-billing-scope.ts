import { organizationIdOf, useScope } from '@/lib/scopes';
import { useSignedIn } from '@/lib/signed-in';
import { useWorkspace, type Workspace } from '@/lib/workspace';

/**
 * The workspace and organization that usage banners and the Billing page speak of by default:
 * the current scope's (a workspace scope names both, an organization scope the organization),
 * else the current workspace and its organization.
 */
export function useCurrentBillingScope(): { workspace: Workspace | null; organizationId: number | null } {
  const { scope } = useScope();
  const { workspace: current, workspaces } = useWorkspace();
  const workspace =
    (scope?.type === 'account' ? workspaces.find((w) => w.id === Number(scope.id)) : undefined) ?? current;
  return { workspace, organizationId: organizationIdOf(scope) ?? workspace?.organization.id ?? null };
}

/** Whether the signed-in user is an admin of the organization. */
export function useIsOrganizationAdmin(organizationId: number | null): boolean {
  const { organizationMemberships } = useSignedIn();
  return organizationMemberships.some(
    (membership) => membership.organizationId === organizationId && membership.role === 'admin',
  );
}
