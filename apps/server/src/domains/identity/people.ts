import { and, eq, exists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationMemberships, workspaceMemberships, workspaces } from '../../db/schema/index.js';

// Who can use a workspace, as other domains ask it (onboarding's flags): part of identity's read model.

/**
 * Whom a workspace's access reaches: its members and its organization's admins (access/workspace.ts);
 * with `adminsOnly`, its admins and the organization's.
 */
export async function peopleOfWorkspace(tx: Db, workspaceId: number, adminsOnly: boolean): Promise<number[]> {
  const members = tx
    .select({ userId: workspaceMemberships.userId })
    .from(workspaceMemberships)
    .where(
      and(
        eq(workspaceMemberships.workspaceId, workspaceId),
        adminsOnly ? eq(workspaceMemberships.isAdmin, true) : undefined,
      ),
    );
  const organizationAdmins = tx
    .select({ userId: organizationMemberships.userId })
    .from(organizationMemberships)
    .innerJoin(workspaces, eq(workspaces.organizationId, organizationMemberships.organizationId))
    .where(and(eq(workspaces.id, workspaceId), eq(organizationMemberships.role, 'admin')));
  const rows = await members.union(organizationAdmins);
  return rows.map((row) => row.userId);
}

/**
 * Whether the user can use a workspace whose setup is complete now: someone who joined after the
 * setup completed has access all the same.
 */
export async function hasWorkspaceWithCompletedSetup(db: Db, userId: number): Promise<boolean> {
  const member = db
    .select({ one: sql`1` })
    .from(workspaceMemberships)
    .where(and(eq(workspaceMemberships.workspaceId, workspaces.id), eq(workspaceMemberships.userId, userId)));
  const organizationAdmin = db
    .select({ one: sql`1` })
    .from(organizationMemberships)
    .where(
      and(
        eq(organizationMemberships.organizationId, workspaces.organizationId),
        eq(organizationMemberships.userId, userId),
        eq(organizationMemberships.role, 'admin'),
      ),
    );
  const [found] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.setupComplete, true), or(exists(member), exists(organizationAdmin))))
    .limit(1);
  return found !== undefined;
}

/** The workspace of this slug, when the user is a member of it (its id), or null. */
export async function memberWorkspaceBySlug(db: Db, userId: number, slug: string): Promise<number | null> {
  const [found] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .innerJoin(
      workspaceMemberships,
      and(eq(workspaceMemberships.workspaceId, workspaces.id), eq(workspaceMemberships.userId, userId)),
    )
    .where(eq(workspaces.slug, slug))
    .limit(1);
  return found?.id ?? null;
}
