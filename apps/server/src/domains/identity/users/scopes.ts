import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { customGroups, organizationCustomGroups, type User, workspaces } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { ALL_WORKSPACES, EVERYTHING, groupScopeId } from '../access/scopes.js';
import type { scopeSchema } from './schemas.js';
import { memberships, organizationMembershipRows } from './service.js';

type Scope = z.infer<typeof scopeSchema>;

/** What the scope pickers offer: everything, each organization, each workspace, the user; staff lists for staff. */
export async function validScopes(db: Db, user: User): Promise<Scope[]> {
  const [workspaces, orgs] = await Promise.all([memberships(db, user), organizationMembershipRows(db, user)]);
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
