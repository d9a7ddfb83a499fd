import { and, eq, exists, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  organizationMemberships,
  userFlags,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import type { FlagName } from './catalog.js';

// The two flags of a cloud setup (console.md section 3): `completed-setup-once` for the people who
// set a workspace's cloud up, `access-to-account-with-completed-setup` for everyone who can use it.

/** Whom a workspace's access reaches: its members and its organization's admins (access/workspace.ts). */
function peopleOf(tx: Db, workspaceId: number, adminsOnly: boolean) {
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
  return members.union(organizationAdmins);
}

async function tick(tx: Db, userIds: number[], name: FlagName) {
  if (userIds.length === 0) return;
  await tx
    .insert(userFlags)
    .values(userIds.map((userId) => ({ userId, name, completed: true })))
    .onConflictDoUpdate({
      target: [userFlags.userId, userFlags.name],
      set: { completed: true, updated: new Date() },
      setWhere: sql`not ${userFlags.completed}`,
    });
}

/**
 * A workspace's cloud setup is complete: its admins (workspace and organization admins, the only
 * ones who may set a cloud up) have completed a setup once, and everyone who can use the
 * workspace has access to one with a completed setup. In the caller's transaction.
 */
export async function recordCloudSetupComplete(tx: Db, workspaceId: number): Promise<void> {
  const [admins, everyone] = await Promise.all([
    peopleOf(tx, workspaceId, true),
    peopleOf(tx, workspaceId, false),
  ]);
  await tick(
    tx,
    admins.map((row) => row.userId),
    'completed-setup-once',
  );
  await tick(
    tx,
    everyone.map((row) => row.userId),
    'access-to-account-with-completed-setup',
  );
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
