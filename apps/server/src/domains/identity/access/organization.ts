import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  type OrganizationMembership,
  organizationMemberships,
  organizations,
  type User,
  type WorkspaceMembership,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import { notFound, permissionDenied } from '../../../http/errors.js';
import { MESSAGES } from './messages.js';

export interface OrganizationAccess {
  /** Who asked. */
  user: User;
  organization: Organization;
  membership: OrganizationMembership | null;
  /** Organization admin. */
  isAdmin: boolean;
  /** Memberships of the caller in this organization's workspaces. */
  workspaceMemberships: WorkspaceMembership[];
  /** Whether the caller may manage members of this workspace (one of this organization's). */
  adminsWorkspace(workspaceId: number): boolean;
  /** Organization admin, or admin of at least one of its workspaces. */
  canManageMembers: boolean;
}

/**
 * - read: members of the organization or of one of its workspaces, and staff;
 * - members: who may add teammates (organization admins and workspace admins);
 * - admin: organization admins.
 * Everyone else gets a 404, so organizations do not leak.
 */
export type OrganizationNeed = 'read' | 'members' | 'admin';

export async function organizationAccess(
  db: Db,
  user: User,
  organizationId: number,
  need: OrganizationNeed = 'read',
  adminMessage: string = MESSAGES.organizationAdmin,
): Promise<OrganizationAccess> {
  const [row] = await db
    .select({ organization: organizations, membership: organizationMemberships })
    .from(organizations)
    .leftJoin(
      organizationMemberships,
      and(
        eq(organizationMemberships.organizationId, organizations.id),
        eq(organizationMemberships.userId, user.id),
      ),
    )
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!row) throw notFound();
  const membershipRows = await db
    .select({ membership: workspaceMemberships })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .where(and(eq(workspaceMemberships.userId, user.id), eq(workspaces.organizationId, organizationId)));
  const ownMemberships = membershipRows.map((r) => r.membership);
  if (!row.membership && ownMemberships.length === 0 && !user.isStaff) throw notFound();
  const isAdmin = row.membership?.role === 'admin';
  const adminOf = new Set(ownMemberships.filter((m) => m.isAdmin).map((m) => m.workspaceId));
  const access: OrganizationAccess = {
    user,
    organization: row.organization,
    membership: row.membership,
    isAdmin,
    workspaceMemberships: ownMemberships,
    adminsWorkspace: (workspaceId) => isAdmin || adminOf.has(workspaceId),
    canManageMembers: isAdmin || adminOf.size > 0,
  };
  if (need === 'admin' && !isAdmin) throw permissionDenied(adminMessage);
  if (need === 'members' && !access.canManageMembers) throw permissionDenied(MESSAGES.addTeammates);
  return access;
}

/**
 * Whether the caller may take someone (a member or an invite) out of the organization altogether:
 * organization admins may; a workspace admin may when the person is no organization admin and is
 * only in workspaces the caller administers.
 */
export function mayRemoveFromOrganization(
  access: OrganizationAccess,
  role: 'admin' | 'member',
  workspaceIds: number[],
): boolean {
  if (access.isAdmin) return true;
  return role === 'member' && access.canManageMembers && workspaceIds.every((a) => access.adminsWorkspace(a));
}
