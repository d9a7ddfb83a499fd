import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userFlags } from '../../db/schema/index.js';
import { peopleOfWorkspace } from '../identity/index.js';
import type { FlagName } from './catalog.js';

// The two flags of a cloud setup: `completed-setup-once` for the people who
// set a workspace's cloud up, `access-to-account-with-completed-setup` for everyone who can use it.

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
    peopleOfWorkspace(tx, workspaceId, true),
    peopleOfWorkspace(tx, workspaceId, false),
  ]);
  await tick(tx, admins, 'completed-setup-once');
  await tick(tx, everyone, 'access-to-account-with-completed-setup');
}
