import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  organizationMemberships,
  organizations,
  type User,
  type Workspace,
  type WorkspaceMembership,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import { ApiError, permissionDenied } from '../../../http/errors.js';
import { MESSAGES } from './messages.js';

export interface WorkspaceAccess {
  /** Who asked. */
  user: User;
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
    user,
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
