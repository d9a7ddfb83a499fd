import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  organizations,
  users,
  type Workspace,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import { badRequest, fieldError, nonFieldError, notFound } from '../../../http/errors.js';
import { type OffsetQuery, paginate } from '../../../http/pagination.js';
import type { z } from '../../../http/zod.js';
import { uniqueViolation } from '../../../lib/db-errors.js';
import { contains } from '../../../lib/sql.js';
import { isoTime } from '../../../lib/time.js';
import type { OrganizationAccess } from '../access/organization.js';
import type { ResolvedScope } from '../access/resolve.js';
import type { WorkspaceAccess, WorkspaceKey } from '../access/workspace.js';
import { repairDefaults } from '../organizations/defaults.js';
import { presentWorkspaceBrief } from '../organizations/present.js';
import { memberUsers } from '../organizations/present-members.js';
import type { PlanPort } from '../ports.js';
import { isWorkspaceNameFree, nameTaken, slugify } from './names.js';
import type {
  createWorkspaceBody,
  updateWorkspaceMembershipBody,
  workspaceLookupQuery,
  workspaceMemberSchema,
  workspaceSchema,
} from './schemas.js';

type WorkspaceAnswer = z.infer<typeof workspaceSchema>;
type WorkspaceMember = z.infer<typeof workspaceMemberSchema>;
type WorkspaceMembershipRow = typeof workspaceMemberships.$inferSelect;

export const WORKSPACE_LIMIT_MESSAGE =
  "Your organization has reached your plan's workspace limit. See plans to enable adding more workspaces.";

async function presentMembers(db: Db, rows: WorkspaceMembershipRow[]): Promise<WorkspaceMember[]> {
  const people = await memberUsers(
    db,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    id: r.id,
    user: people.get(r.userId)!,
    workspace_id: r.workspaceId,
    is_admin: r.isAdmin,
    core_limit: r.coreLimit,
    credit_limit: r.creditLimit,
  }));
}

/** Workspaces with their members, in two queries whatever their number. */
async function presentWorkspaces(
  db: Db,
  rows: Array<{ workspace: Workspace; organization: Organization }>,
): Promise<WorkspaceAnswer[]> {
  if (rows.length === 0) return [];
  const memberships = await db
    .select({ membership: workspaceMemberships })
    .from(workspaceMemberships)
    .innerJoin(users, eq(users.id, workspaceMemberships.userId))
    .where(
      inArray(
        workspaceMemberships.workspaceId,
        rows.map((r) => r.workspace.id),
      ),
    )
    .orderBy(asc(users.username));
  const members = await presentMembers(
    db,
    memberships.map((m) => m.membership),
  );
  return rows.map(({ workspace, organization }) => ({
    ...presentWorkspaceBrief(workspace, organization),
    credit_limit: workspace.creditLimit,
    created: isoTime(workspace.created),
    membership_set: members.filter((m) => m.workspace_id === workspace.id),
  }));
}

const presentWorkspace = async (db: Db, workspace: Workspace, organization: Organization) =>
  (await presentWorkspaces(db, [{ workspace, organization }]))[0]!;

/** A workspace in an organization, administered by its creator (an organization admin). */
export async function createWorkspace(
  db: Db,
  plans: PlanPort,
  { organization, user }: OrganizationAccess,
  input: z.infer<typeof createWorkspaceBody>,
): Promise<WorkspaceAnswer> {
  const slug = slugify(input.name);
  if (!slug) throw fieldError('name', 'Use at least one letter or number.');
  try {
    const workspace = await db.transaction(async (tx) => {
      // One creation at a time per organization, so the workspace limit holds.
      await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, organization.id))
        .for('update');
      const { workspaceLimit } = await plans.activePlan(tx, organization.id);
      if (workspaceLimit !== null) {
        const [existing] = await tx
          .select({ n: count() })
          .from(workspaces)
          .where(eq(workspaces.organizationId, organization.id));
        if ((existing?.n ?? 0) >= workspaceLimit)
          throw badRequest(WORKSPACE_LIMIT_MESSAGE, 'WORKSPACE_LIMIT_REACHED', {
            workspace_limit: workspaceLimit,
          });
      }
      if (!(await isWorkspaceNameFree(tx, input.name, slug))) throw nameTaken();
      const [created] = await tx
        .insert(workspaces)
        .values({ slug, name: input.name, organizationId: organization.id })
        .returning();
      await tx
        .insert(workspaceMemberships)
        .values({ workspaceId: created!.id, userId: user.id, isAdmin: true });
      return created!;
    });
    return presentWorkspace(db, workspace, organization);
  } catch (err) {
    if (uniqueViolation(err)?.startsWith('accounts_')) throw nameTaken();
    throw err;
  }
}

/**
 * The workspaces the user reads, optionally of one organization: all of it for its admins and
 * staff, the user's own otherwise.
 */
export async function listWorkspaces(
  db: Db,
  { organization: access, scope }: { organization?: OrganizationAccess | undefined; scope: ResolvedScope },
  query: OffsetQuery & { organization_id?: number | undefined; search?: string | undefined },
): Promise<{ items: WorkspaceAnswer[]; count: number }> {
  let visible: SQL | undefined;
  if (query.organization_id !== undefined && access) {
    visible =
      access.isAdmin || access.user.isStaff
        ? eq(workspaces.organizationId, query.organization_id)
        : and(
            eq(workspaces.organizationId, query.organization_id),
            inArray(
              workspaces.id,
              access.workspaceMemberships.map((m) => m.workspaceId),
            ),
          );
  } else {
    visible = inArray(workspaces.id, scope.workspaceIds ?? []);
  }
  const where = and(visible, query.search ? contains(workspaces.name, query.search) : undefined);
  const { rows, count } = await paginate(
    query,
    db
      .select({ workspace: workspaces, organization: organizations })
      .from(workspaces)
      .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
      .where(where)
      .orderBy(asc(workspaces.name)),
    db.$count(workspaces, where),
  );
  return { items: await presentWorkspaces(db, rows), count };
}

/** The workspace a details call names: by workspace_slug, workspace_id or workspace_name (the first given). */
export function workspaceLookupKey(query: z.infer<typeof workspaceLookupQuery>): WorkspaceKey {
  const key =
    query.workspace_slug !== undefined
      ? { slug: query.workspace_slug }
      : query.workspace_id !== undefined
        ? { id: query.workspace_id }
        : query.workspace_name !== undefined
          ? { name: query.workspace_name }
          : null;
  if (!key) throw nonFieldError('One of workspace_slug, workspace_id or workspace_name is required.');
  return key;
}

export const workspaceDetails = (db: Db, { workspace, organization }: WorkspaceAccess) =>
  presentWorkspace(db, workspace, organization);

/** The workspace-wide credit limit (null: no limit), set by its admins or the organization's. */
export const updateWorkspace = (db: Db, access: WorkspaceAccess, creditLimit: number | null) =>
  patchWorkspace(db, access, { credit_limit: creditLimit });

export interface WorkspacePatch {
  name?: string | undefined;
  avatar_url?: string | null | undefined;
  credit_limit?: number | null | undefined;
}

/**
 * Changes a workspace's name, avatar or credit limit (its admins or the organization's). The slug
 * stays, so clients, package index URLs and clusters keep finding it; the name stays unique
 * among every name and slug.
 */
export async function patchWorkspace(
  db: Db,
  { workspace, organization }: WorkspaceAccess,
  patch: WorkspacePatch,
): Promise<WorkspaceAnswer> {
  const renamed =
    patch.name !== undefined &&
    patch.name.toLowerCase() !== workspace.name.toLowerCase() &&
    patch.name.toLowerCase() !== workspace.slug;
  if (renamed && !(await isWorkspaceNameFree(db, patch.name!))) throw nameTaken();
  const changes = {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.avatar_url !== undefined && { avatarUrl: patch.avatar_url }),
    ...(patch.credit_limit !== undefined && { creditLimit: patch.credit_limit }),
  };
  if (Object.keys(changes).length === 0) return presentWorkspace(db, workspace, organization);
  try {
    const [updated] = await db
      .update(workspaces)
      .set(changes)
      .where(eq(workspaces.id, workspace.id))
      .returning();
    return presentWorkspace(db, updated!, organization);
  } catch (err) {
    if (uniqueViolation(err)?.startsWith('accounts_')) throw nameTaken();
    throw err;
  }
}

/** A workspace membership by id; its workspace is what the membership routes resolve access to. */
export async function findMembership(db: Db, membershipId: number) {
  const [membership] = await db
    .select()
    .from(workspaceMemberships)
    .where(eq(workspaceMemberships.id, membershipId));
  if (!membership) throw notFound();
  return membership;
}

/** A membership of the workspace the caller administers. */
async function membershipIn(db: Db, access: WorkspaceAccess, membershipId: number) {
  const membership = await findMembership(db, membershipId);
  if (membership.workspaceId !== access.workspace.id) throw notFound();
  return membership;
}

export async function updateWorkspaceMembership(
  db: Db,
  access: WorkspaceAccess,
  membershipId: number,
  input: z.infer<typeof updateWorkspaceMembershipBody>,
): Promise<WorkspaceMember> {
  const membership = await membershipIn(db, access, membershipId);
  const changes = {
    ...(input.is_admin !== undefined && { isAdmin: input.is_admin }),
    ...(input.core_limit !== undefined && { coreLimit: input.core_limit }),
    ...(input.credit_limit !== undefined && { creditLimit: input.credit_limit }),
  };
  const [updated] =
    Object.keys(changes).length === 0
      ? [membership]
      : await db
          .update(workspaceMemberships)
          .set(changes)
          .where(eq(workspaceMemberships.id, membershipId))
          .returning();
  return (await presentMembers(db, [updated!]))[0]!;
}

/** Takes a member out of one workspace; they stay in the organization. */
export async function deleteWorkspaceMembership(
  db: Db,
  access: WorkspaceAccess,
  membershipId: number,
): Promise<void> {
  const membership = await membershipIn(db, access, membershipId);
  await db.transaction(async (tx) => {
    await tx.delete(workspaceMemberships).where(eq(workspaceMemberships.id, membershipId));
    await repairDefaults(tx, [membership.userId]);
  });
}

export async function workspaceMembers(
  db: Db,
  { workspace }: WorkspaceAccess,
  page: OffsetQuery,
): Promise<{ items: WorkspaceMember[]; count: number }> {
  const where = eq(workspaceMemberships.workspaceId, workspace.id);
  const { rows, count } = await paginate(
    page,
    db
      .select({ membership: workspaceMemberships })
      .from(workspaceMemberships)
      .innerJoin(users, eq(users.id, workspaceMemberships.userId))
      .where(where)
      .orderBy(asc(users.username)),
    db.$count(workspaceMemberships, where),
  );
  return {
    items: await presentMembers(
      db,
      rows.map((r) => r.membership),
    ),
    count,
  };
}
