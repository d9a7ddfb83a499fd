import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { organizationCustomGroups, type User, workspaces } from '../../../db/schema/index.js';
import { notFound, permissionDenied } from '../../../http/errors.js';
import { organizationAccess } from './organization.js';
import { readableWorkspaceIds, workspaceAccess } from './workspace.js';

/**
 * Scope ids, as list filters take them:
 * - compound `everything`: every workspace the user reads;
 * - organization, account (workspace) and user: their numeric ids (an account scope also carries
 *   its workspace's `slug`, which is what the `account` filter takes);
 * - custom staff (staff only): `all` (every workspace on the server) and `group-<id>` (the
 *   workspaces of the organizations in a custom group).
 */
export const EVERYTHING = 'everything';
export const ALL_WORKSPACES = 'all';
export const groupScopeId = (groupId: number) => `group-${groupId}`;

export interface ScopeFilters {
  account?: string | undefined;
  organization?: number | undefined;
  user?: number | undefined;
  compound_scope?: string | undefined;
  custom_staff_scope?: string | undefined;
}

/**
 * The workspaces (and creator) a list filtered by scope may show: `workspaceIds` null means every
 * workspace (staff's `all`); `userId` narrows to what that user created. The first filter given
 * wins, in the order of ScopeFilters; none means every workspace the user reads.
 */
export async function resolveScope(
  db: Db,
  user: User,
  filters: ScopeFilters,
): Promise<{ workspaceIds: number[] | null; userId: number | null }> {
  if (filters.account !== undefined) {
    const { workspace } = await workspaceAccess(db, user, filters.account);
    return { workspaceIds: [workspace.id], userId: null };
  }
  if (filters.organization !== undefined) {
    const access = await organizationAccess(db, user, filters.organization);
    if (access.isAdmin || user.isStaff) {
      const rows = await db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.organizationId, filters.organization));
      return { workspaceIds: rows.map((r) => r.id), userId: null };
    }
    return { workspaceIds: access.workspaceMemberships.map((m) => m.workspaceId), userId: null };
  }
  if (filters.user !== undefined) {
    if (filters.user === user.id)
      return { workspaceIds: await readableWorkspaceIds(db, user), userId: user.id };
    if (!user.isStaff) throw notFound();
    return { workspaceIds: null, userId: filters.user };
  }
  if (filters.custom_staff_scope !== undefined) {
    if (!user.isStaff) throw permissionDenied();
    if (filters.custom_staff_scope === ALL_WORKSPACES) return { workspaceIds: null, userId: null };
    const groupId = /^group-(\d{1,10})$/.exec(filters.custom_staff_scope)?.[1];
    if (!groupId) throw notFound();
    const rows = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(
        inArray(
          workspaces.organizationId,
          db
            .select({ id: organizationCustomGroups.organizationId })
            .from(organizationCustomGroups)
            .where(eq(organizationCustomGroups.groupId, Number(groupId))),
        ),
      );
    return { workspaceIds: rows.map((r) => r.id), userId: null };
  }
  return { workspaceIds: await readableWorkspaceIds(db, user), userId: null };
}
