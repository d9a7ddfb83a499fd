import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { customGroups, organizationCustomGroups, type User, workspaces } from '../../db/schema/index.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { organizationAccess, readableWorkspaceIds, workspaceAccess } from '../workspaces/access.js';
import type { scopeSchema } from './schemas.js';
import { memberships, organizationMemberships } from './service.js';

type Scope = z.infer<typeof scopeSchema>;

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
const groupScopeId = (groupId: number) => `group-${groupId}`;

/** What the scope pickers offer: everything, each organization, each workspace, the user; staff lists for staff. */
export async function validScopes(db: Db, user: User): Promise<Scope[]> {
  const [workspaces, orgs] = await Promise.all([memberships(db, user), organizationMemberships(db, user)]);
  const names = workspaces.map((w) => w.account.name);
  return [
    {
      type: 'compound',
      id: EVERYTHING,
      name: 'Everything',
      slug: null,
      email: null,
      workspace_names: names,
      organization_id: null,
    },
    ...orgs.map((o) => ({
      type: 'organization' as const,
      id: o.organization.id,
      name: o.organization.name,
      slug: null,
      email: null,
      workspace_names: workspaces
        .filter((w) => w.account.organization.id === o.organization.id)
        .map((w) => w.account.name),
      organization_id: o.organization.id,
    })),
    ...workspaces.map((w) => ({
      type: 'account' as const,
      id: w.account.id,
      name: w.account.name,
      slug: w.account.slug,
      email: null,
      workspace_names: [w.account.name],
      organization_id: w.account.organization.id,
    })),
    {
      type: 'user',
      id: user.id,
      name: user.username,
      slug: null,
      email: user.email,
      workspace_names: names,
      organization_id: null,
    },
    ...(user.isStaff ? await staffScopes(db) : []),
  ];
}

async function staffScopes(db: Db): Promise<Scope[]> {
  const groups = await db
    .select({ id: customGroups.id, name: customGroups.name, workspace: workspaces.name })
    .from(customGroups)
    .leftJoin(organizationCustomGroups, eq(organizationCustomGroups.groupId, customGroups.id))
    .leftJoin(workspaces, eq(workspaces.organizationId, organizationCustomGroups.organizationId))
    .orderBy(asc(customGroups.name), asc(workspaces.name));
  const byGroup = new Map<number, Scope>();
  for (const row of groups) {
    let scope = byGroup.get(row.id);
    if (!scope) {
      scope = {
        type: 'custom_staff',
        id: groupScopeId(row.id),
        name: row.name,
        slug: null,
        email: null,
        workspace_names: [],
        organization_id: null,
      };
      byGroup.set(row.id, scope);
    }
    if (row.workspace) scope.workspace_names.push(row.workspace);
  }
  return [
    {
      type: 'custom_staff',
      id: ALL_WORKSPACES,
      name: 'All workspaces (staff)',
      slug: null,
      email: null,
      workspace_names: [],
      organization_id: null,
    },
    ...byGroup.values(),
  ];
}

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
