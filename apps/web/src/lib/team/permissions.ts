import type { OrganizationInvite } from '@/data/organizations/organization-invites-query';
import type { OrganizationMember } from '@/data/organizations/organization-members-query';
import type { Organization } from '@/data/organizations/organization-query';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';

// The console mirrors the server's rules (apps/server's modules/access/)
// to show or hide controls; the server decides.
export const TOOLTIPS = {
  addTeammates: 'You must be an organization or workspace admin to add team mates.',
  addWorkspaces: 'You must be an organization admin to add workspaces.',
  noWorkspaces: 'Add a workspace to get started.',
  notWorkspaceAdmin: (workspace: string) => `You are not an admin of ${workspace}`,
} as const;

export type TeamPermissions = {
  isOrganizationAdmin: boolean;
  /** Organization admin, or admin of this workspace. */
  adminsWorkspace: (workspaceId: number) => boolean;
  /** Organization admin, or admin of one of its workspaces: adds teammates, edits member rows. */
  canManageMembers: boolean;
  /** May take this person (a member or an invite) out of the organization. */
  mayRemove: (role: 'admin' | 'member', workspaceIds: number[]) => boolean;
};

export function teamPermissions(
  userId: number,
  organization: Pick<Organization, 'memberSet'>,
  workspaces: readonly Pick<OrganizationWorkspace, 'id' | 'membershipSet'>[],
): TeamPermissions {
  const isOrganizationAdmin = organization.memberSet.some(
    (member) => member.user.id === userId && member.role === 'admin',
  );
  const adminOf = new Set(
    workspaces
      .filter((workspace) => workspace.membershipSet.some((m) => m.user.id === userId && m.isAdmin))
      .map((workspace) => workspace.id),
  );
  const adminsWorkspace = (workspaceId: number) => isOrganizationAdmin || adminOf.has(workspaceId);
  const canManageMembers = isOrganizationAdmin || adminOf.size > 0;
  return {
    isOrganizationAdmin,
    adminsWorkspace,
    canManageMembers,
    mayRemove: (role, workspaceIds) =>
      isOrganizationAdmin || (role === 'member' && canManageMembers && workspaceIds.every(adminsWorkspace)),
  };
}

export const memberWorkspaceIds = (member: OrganizationMember) =>
  member.workspaceMemberships.map((row) => row.workspaceId);
export const inviteWorkspaceIds = (invite: OrganizationInvite) =>
  invite.workspaceInvites.map((row) => row.workspaceId);

/** The seats the plan allows: the smaller of its member and seat limits; null when neither is set. */
export function seatsAllowed(organization: Pick<Organization, 'memberLimit' | 'seatLimit'>): number | null {
  const limits = [organization.memberLimit, organization.seatLimit].filter((l): l is number => l !== null);
  return limits.length ? Math.min(...limits) : null;
}

/**
 * Members plus pending invites plus the one being added may not exceed the member limit (section 5),
 * nor the seat limit.
 */
export function memberLimitReached(
  organization: Pick<Organization, 'memberLimit' | 'seatLimit' | 'memberCount' | 'pendingInviteCount'>,
): boolean {
  const allowed = seatsAllowed(organization);
  if (allowed === null) return false;
  return organization.memberCount + organization.pendingInviteCount + 1 > allowed;
}

/** Workspace creation stops when the count reaches the workspace limit (when set). */
export function workspaceLimitReached(
  organization: Pick<Organization, 'workspaceLimit' | 'workspaceCount'>,
): boolean {
  return organization.workspaceLimit !== null && organization.workspaceCount >= organization.workspaceLimit;
}
