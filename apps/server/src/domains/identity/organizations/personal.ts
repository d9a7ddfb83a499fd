import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  organizationMemberships,
  organizations,
  type User,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import type { PlanPort } from '../ports.js';

/**
 * Every new user gets a personal organization and a workspace whose slug is their username, and
 * administers both; they become the user's defaults.
 */
export async function createPersonalWorkspace(
  tx: Db,
  plans: PlanPort,
  user: User,
): Promise<{ organizationId: number; workspaceId: number }> {
  const [organization] = await tx
    .insert(organizations)
    .values({ name: user.username, isPersonal: true })
    .returning({ id: organizations.id });
  const organizationId = organization!.id;
  await plans.startFirstPlan(tx, organizationId);
  await tx.insert(organizationMemberships).values({ organizationId, userId: user.id, role: 'admin' });
  const [workspace] = await tx
    .insert(workspaces)
    .values({ slug: user.username, name: user.username, organizationId })
    .returning({ id: workspaces.id });
  const workspaceId = workspace!.id;
  await tx.insert(workspaceMemberships).values({ workspaceId, userId: user.id, isAdmin: true });
  await tx
    .update(users)
    .set({ defaultWorkspaceId: workspaceId, defaultOrganizationId: organizationId })
    .where(eq(users.id, user.id));
  return { organizationId, workspaceId };
}
