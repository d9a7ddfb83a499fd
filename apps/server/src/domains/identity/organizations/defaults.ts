import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  organizationMemberships,
  organizations,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';

/**
 * After users lose memberships, points each one's default workspace and organization back at
 * something they still belong to (their personal ones first).
 */
export async function repairDefaults(tx: Db, userIds: number[]): Promise<void> {
  for (const userId of new Set(userIds)) {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) continue;
    const memberships = await tx
      .select({ workspaceId: workspaceMemberships.workspaceId, organizationId: workspaces.organizationId })
      .from(workspaceMemberships)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
      .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
      .where(eq(workspaceMemberships.userId, userId))
      .orderBy(desc(organizations.isPersonal), asc(workspaces.name));
    const orgs = await tx
      .select({ id: organizationMemberships.organizationId })
      .from(organizationMemberships)
      .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
      .where(eq(organizationMemberships.userId, userId))
      .orderBy(desc(organizations.isPersonal), asc(organizations.name));
    const workspace =
      memberships.find((w) => w.workspaceId === user.defaultWorkspaceId) ?? memberships[0] ?? null;
    const organizationId = orgs.some((o) => o.id === user.defaultOrganizationId)
      ? user.defaultOrganizationId
      : (orgs.find((o) => o.id === workspace?.organizationId)?.id ?? orgs[0]?.id ?? null);
    const workspaceId = workspace?.workspaceId ?? null;
    if (workspaceId !== user.defaultWorkspaceId || organizationId !== user.defaultOrganizationId) {
      await tx
        .update(users)
        .set({ defaultWorkspaceId: workspaceId, defaultOrganizationId: organizationId })
        .where(eq(users.id, userId));
    }
  }
}
