import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type Organization,
  type OrganizationMembership,
  organizationMemberships,
  organizations,
  type User,
  type Workspace,
  type WorkspaceMembership,
  workspaceMemberships,
  workspaces,
} from '../../db/schema/index.js';
import { ApiError, notFound, permissionDenied } from '../../http/errors.js';

/**
 * The one place that answers "what may this user do here" for workspaces and organizations
 * (console.md section 6):
 * - members of a workspace, admins of its organization and staff read it; others get a 404;
 * - members of an organization (or of one of its workspaces) and staff read the organization;
 * - organization admins manage workspaces, roles and everything below;
 * - workspace admins add teammates to, and edit member rows and credit limits of, their workspaces.
 * Staff read everything but change only what they administer.
 */

export const MESSAGES = {
  addTeammates: 'You must be an organization or workspace admin to add team mates.',
  addWorkspaces: 'You must be an organization admin to add workspaces.',
  organizationAdmin: 'You must be an organization admin to do this.',
  notWorkspaceAdmin: (workspace: string) => `You are not an admin of ${workspace}`,
} as const;

export interface WorkspaceAccess {
  workspace: Workspace;
  organization: Organization;
  membership: WorkspaceMembership | null;
  isOrganizationAdmin: boolean;
  /** Workspace admin or organization admin. */
  isAdmin: boolean;
}

export type WorkspaceKey = { slug: string } | { id: number } | { name: string };

export const workspaceNotFound = (name: string | number) =>
  new ApiError(404, { detail: `Workspace named ${name} not found`, code: 'NOT_FOUND' });

/**
 * The caller's standing in a workspace named by slug. Members, admins of its organization and
 * staff may read it; everyone else gets a 404, so names of other workspaces do not leak.
 */
export function workspaceAccess(
  db: Db,
  user: User,
  slug: string,
  need: 'read' | 'admin' = 'read',
): Promise<WorkspaceAccess> {
  return workspaceAccessBy(db, user, { slug }, need);
}

/** workspaceAccess for any of the lookup keys clients use (workspace_slug, workspace_id, workspace_name). */
export async function workspaceAccessBy(
  db: Db,
  user: User,
  key: WorkspaceKey,
  need: 'read' | 'admin' = 'read',
): Promise<WorkspaceAccess> {
  const [where, shown]: [SQL, string | number] =
    'slug' in key
      ? [eq(workspaces.slug, key.slug), key.slug]
      : 'id' in key
        ? [eq(workspaces.id, key.id), key.id]
        : [sql`lower(${workspaces.name}) = ${key.name.toLowerCase()}`, key.name];
  const [row] = await db
    .select({
      workspace: workspaces,
      organization: organizations,
      membership: workspaceMemberships,
      orgRole: organizationMemberships.role,
    })
    .from(workspaces)
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .leftJoin(
      workspaceMemberships,
      and(eq(workspaceMemberships.workspaceId, workspaces.id), eq(workspaceMemberships.userId, user.id)),
    )
    .leftJoin(
      organizationMemberships,
      and(
        eq(organizationMemberships.organizationId, workspaces.organizationId),
        eq(organizationMemberships.userId, user.id),
      ),
    )
    .where(where)
    .limit(1);
  if (!row) throw workspaceNotFound(shown);
  const isOrganizationAdmin = row.orgRole === 'admin';
  if (!row.membership && !isOrganizationAdmin && !user.isStaff) throw workspaceNotFound(shown);
  const access: WorkspaceAccess = {
    workspace: row.workspace,
    organization: row.organization,
    membership: row.membership,
    isOrganizationAdmin,
    isAdmin: isOrganizationAdmin || row.membership?.isAdmin === true,
  };
  if (need === 'admin' && !access.isAdmin)
    throw permissionDenied(MESSAGES.notWorkspaceAdmin(row.workspace.name));
  return access;
}

export interface OrganizationAccess {
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

/** Ids of the workspaces the user reads: their own, and all of the organizations they administer. */
export async function readableWorkspaceIds(db: Db, user: User): Promise<number[]> {
  const [own, administered] = await Promise.all([
    db
      .select({ id: workspaceMemberships.workspaceId })
      .from(workspaceMemberships)
      .where(eq(workspaceMemberships.userId, user.id)),
    db
      .select({ id: workspaces.id })
      .from(workspaces)
      .innerJoin(
        organizationMemberships,
        eq(organizationMemberships.organizationId, workspaces.organizationId),
      )
      .where(and(eq(organizationMemberships.userId, user.id), eq(organizationMemberships.role, 'admin'))),
  ]);
  return [...new Set([...own, ...administered].map((r) => r.id))];
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
