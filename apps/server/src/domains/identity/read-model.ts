import { and, eq, inArray } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  type Organization,
  organizationMemberships,
  organizations,
  users,
  type Workspace,
  workspaceMemberships,
  workspaces,
} from '../../db/schema/index.js';

// How other domains read identity's tables: these views (to join and filter on, inside their own
// queries) and the functions below. They never name identity's tables themselves.

const qb = new QueryBuilder();

/** Workspaces as other domains join them (`workspace_id` columns point here). */
export const workspaceView = qb
  .select({
    id: workspaces.id,
    slug: workspaces.slug,
    name: workspaces.name,
    organizationId: workspaces.organizationId,
    /** The workspace's monthly credit limit; null: none. */
    creditLimit: workspaces.creditLimit,
  })
  .from(workspaces)
  .as('workspace_view');

/** Users as other domains show them beside their own rows (creators, who changed what). */
export const userView = qb
  .select({ id: users.id, username: users.username, email: users.email, isStaff: users.isStaff })
  .from(users)
  .as('user_view');

/** Organizations as other domains join them: their names. */
export const organizationView = qb
  .select({ id: organizations.id, name: organizations.name })
  .from(organizations)
  .as('organization_view');

/** Workspace members' own limits, as other domains join them. */
export const memberLimitView = qb
  .select({
    workspaceId: workspaceMemberships.workspaceId,
    userId: workspaceMemberships.userId,
    creditLimit: workspaceMemberships.creditLimit,
    coreLimit: workspaceMemberships.coreLimit,
  })
  .from(workspaceMemberships)
  .as('member_limit_view');

/** The ids of an organization's workspaces, as a subquery: `inArray(t.workspaceId, workspaceIdsOf(id))`. */
export const workspaceIdsOf = (organizationId: number) =>
  qb.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.organizationId, organizationId));

export async function findWorkspace(db: Db, workspaceId: number): Promise<Workspace | null> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row ?? null;
}

export async function findOrganization(db: Db, organizationId: number): Promise<Organization | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row ?? null;
}

/** Slugs and names of workspaces, by id. */
export async function workspaceNamesOf(
  db: Db,
  workspaceIds: number[],
): Promise<Map<number, { id: number; slug: string; name: string }>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
    .from(workspaces)
    .where(inArray(workspaces.id, [...new Set(workspaceIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** An organization's workspaces: ids, slugs and names. */
export const workspacesOfOrganization = (db: Db, organizationId: number) =>
  db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.organizationId, organizationId));

/** Usernames, by user id. */
export async function usernamesOf(db: Db, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** Email addresses of the server's staff (who hear of what needs a person). */
export async function staffEmails(db: Db): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.isStaff, true));
  return rows.map((r) => r.email);
}

/** Ids of the organizations the user administers. */
export async function administeredOrganizationIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: organizationMemberships.organizationId })
    .from(organizationMemberships)
    .where(and(eq(organizationMemberships.userId, userId), eq(organizationMemberships.role, 'admin')));
  return rows.map((r) => r.id);
}

/**
 * A member's core limit in a workspace, its row held (`for update`) until the caller's
 * transaction ends, so that two concurrent starts cannot both squeeze under it; null when the
 * user has no membership row there (organization admins).
 */
export async function lockCoreLimit(tx: Db, workspaceId: number, userId: number): Promise<number | null> {
  const [membership] = await tx
    .select({ coreLimit: workspaceMemberships.coreLimit })
    .from(workspaceMemberships)
    .where(and(eq(workspaceMemberships.workspaceId, workspaceId), eq(workspaceMemberships.userId, userId)))
    .for('update');
  return membership?.coreLimit ?? null;
}

/** Where the workspace's new clusters run and how far its cloud is set up (what cloud setup writes). */
export async function setWorkspaceCloud(
  tx: Db,
  workspaceId: number,
  cloud: Pick<Workspace, 'configuredCustomerHosted' | 'setupComplete' | 'activeBackend'>,
): Promise<void> {
  await tx.update(workspaces).set(cloud).where(eq(workspaces.id, workspaceId));
}
