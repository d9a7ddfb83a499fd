import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  type OrganizationInvite,
  organizationInvites,
  type User,
  workspaceInvites,
  workspaces,
} from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { notFound, permissionDenied } from '../../../http/errors.js';
import { type OffsetQuery, paginate } from '../../../http/pagination.js';
import type { z } from '../../../http/zod.js';
import { days, isoTime } from '../../../lib/time.js';
import { enqueueEmail } from '../../../mail/outbox.js';
import { inviteEmail } from '../../../mail/templates.js';
import { MESSAGES } from '../access/messages.js';
import { mayRemoveFromOrganization, type OrganizationAccess } from '../access/organization.js';
import type { WorkspaceAccess } from '../access/workspace.js';
import type { WorkspaceRowInput } from '../memberships/schemas.js';
import { applyRowPlan, isEmptyPlan, planWorkspaceRows } from '../memberships/workspace-rows.js';
import type {
  inviteSchema,
  updateInviteBody,
  updateWorkspaceInviteBody,
  workspaceInviteListItem,
  workspaceInviteSchema,
} from './schemas.js';
import { mintInviteToken } from './token.js';

/** How long an invitation can be accepted; resending starts the period again. */
export const INVITE_TTL = days(14);

type Invite = z.infer<typeof inviteSchema>;

const isExpired = (invite: OrganizationInvite) => invite.expiration.getTime() <= Date.now();

/** Invitations that can still be accepted; they count against the member limit. */
export async function pendingInviteCount(db: Db, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organizationInvites)
    .where(
      and(
        eq(organizationInvites.organizationId, organizationId),
        gt(organizationInvites.expiration, new Date()),
      ),
    );
  return row?.n ?? 0;
}

async function presentInvites(db: Db, invites: OrganizationInvite[]): Promise<Invite[]> {
  if (invites.length === 0) return [];
  const rows = await db
    .select({ row: workspaceInvites })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .where(
      inArray(
        workspaceInvites.organizationInviteId,
        invites.map((i) => i.id),
      ),
    )
    .orderBy(asc(workspaces.name));
  return invites.map((invite) => ({
    id: invite.id,
    expiration: isoTime(invite.expiration),
    expired: isExpired(invite),
    organization_id: invite.organizationId,
    role: invite.role,
    invite: { email: invite.email, created: isoTime(invite.created) },
    workspace_invites: rows
      .filter((r) => r.row.organizationInviteId === invite.id)
      .map((r) => presentWorkspaceInvite(r.row, invite)),
    organization_invite_id: invite.id,
  }));
}

const presentWorkspaceInvite = (
  row: typeof workspaceInvites.$inferSelect,
  invite: OrganizationInvite,
): z.infer<typeof workspaceInviteSchema> => ({
  id: row.id,
  workspace_id: row.workspaceId,
  core_limit: row.coreLimit,
  credit_limit: row.creditLimit,
  is_admin: row.isAdmin,
  email: invite.email,
  organization_invite_id: invite.id,
});

const inviteRows = (inviteId: number, rows: WorkspaceRowInput[]) =>
  rows.map((w) => ({
    organizationInviteId: inviteId,
    workspaceId: w.workspace_id,
    isAdmin: w.is_admin,
    coreLimit: w.core_limit,
    creditLimit: w.credit_limit,
  }));

/** Writes an invitation and queues its email, inside the caller's transaction. */
export async function createInvite(
  tx: Db,
  deps: Deps,
  input: {
    organization: Organization;
    email: string;
    role: 'admin' | 'member';
    workspaces: WorkspaceRowInput[];
    invitedBy: User;
  },
): Promise<Invite> {
  const { token, tokenHash } = mintInviteToken();
  const [invite] = await tx
    .insert(organizationInvites)
    .values({
      organizationId: input.organization.id,
      email: input.email,
      role: input.role,
      invitedById: input.invitedBy.id,
      expiration: new Date(Date.now() + INVITE_TTL),
      tokenHash,
    })
    .returning();
  if (input.workspaces.length > 0)
    await tx.insert(workspaceInvites).values(inviteRows(invite!.id, input.workspaces));
  await mailInvite(tx, deps, { invite: invite!, token }, input.organization, input.invitedBy);
  return (await presentInvites(tx, [invite!]))[0]!;
}

/**
 * The mail carries a sign-up link and a sign-in link, both with the invitation's token (whoever
 * signs up or in through them accepts it) and the address (so the form can be filled in); the
 * address alone also accepts it, at sign-up or login.
 */
async function mailInvite(
  tx: Db,
  deps: Deps,
  { invite, token }: { invite: OrganizationInvite; token: string },
  organization: Organization,
  by: User,
) {
  const invited = await tx
    .select({ name: workspaces.name })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .where(eq(workspaceInvites.organizationInviteId, invite.id))
    .orderBy(asc(workspaces.name));
  const base = deps.config.publicUrl;
  const email = encodeURIComponent(invite.email);
  await enqueueEmail(
    tx,
    inviteEmail(invite.email, {
      inviter: by.fullName || by.username,
      organization: organization.name,
      workspaces: invited.map((w) => w.name),
      signupLink: `${base}/signup?invite=${token}&email=${email}`,
      loginLink: `${base}/login?open=true&invite=${token}&email=${email}`,
      expiration: invite.expiration,
    }),
  );
}

/** An organization invite by id; its organization is what the invite routes resolve access to. */
export async function findInvite(db: Db, inviteId: number): Promise<OrganizationInvite> {
  const [invite] = await db.select().from(organizationInvites).where(eq(organizationInvites.id, inviteId));
  if (!invite) throw notFound();
  return invite;
}

/** An invite of the organization the caller was resolved access to. */
async function inviteIn(db: Db, access: OrganizationAccess, inviteId: number) {
  const invite = await findInvite(db, inviteId);
  if (invite.organizationId !== access.organization.id) throw notFound();
  return { invite, access };
}

async function currentRows(db: Db, inviteId: number) {
  return db.select().from(workspaceInvites).where(eq(workspaceInvites.organizationInviteId, inviteId));
}

function assertMayRemove(
  access: OrganizationAccess,
  invite: OrganizationInvite,
  rows: Array<{ workspaceId: number }>,
) {
  if (
    !mayRemoveFromOrganization(
      access,
      invite.role,
      rows.map((r) => r.workspaceId),
    )
  )
    throw permissionDenied(MESSAGES.organizationAdmin);
}

export async function getInvite(db: Db, access: OrganizationAccess, inviteId: number): Promise<Invite> {
  const { invite } = await inviteIn(db, access, inviteId);
  return (await presentInvites(db, [invite]))[0]!;
}

export async function listOrganizationInvites(
  db: Db,
  { organization }: OrganizationAccess,
  page: OffsetQuery,
): Promise<{ items: Invite[]; count: number }> {
  const organizationId = organization.id;
  const where = eq(organizationInvites.organizationId, organizationId);
  const { rows, count } = await paginate(
    page,
    db.select().from(organizationInvites).where(where).orderBy(asc(organizationInvites.email)),
    db.$count(organizationInvites, where),
  );
  return { items: await presentInvites(db, rows), count };
}

export async function listWorkspaceInvites(
  db: Db,
  { workspace }: WorkspaceAccess,
  page: OffsetQuery,
): Promise<{ items: z.infer<typeof workspaceInviteListItem>[]; count: number }> {
  const workspaceId = workspace.id;
  const where = eq(workspaceInvites.workspaceId, workspaceId);
  const { rows, count } = await paginate(
    page,
    db
      .select({ row: workspaceInvites, invite: organizationInvites })
      .from(workspaceInvites)
      .innerJoin(organizationInvites, eq(organizationInvites.id, workspaceInvites.organizationInviteId))
      .where(where)
      .orderBy(asc(organizationInvites.email)),
    db.$count(workspaceInvites, where),
  );
  return {
    count,
    items: rows.map((r) => ({
      ...presentWorkspaceInvite(r.row, r.invite),
      expiration: isoTime(r.invite.expiration),
      expired: isExpired(r.invite),
    })),
  };
}

export async function updateInvite(
  db: Db,
  organizationAccess: OrganizationAccess,
  inviteId: number,
  input: z.infer<typeof updateInviteBody>,
): Promise<Invite> {
  const { invite, access } = await inviteIn(db, organizationAccess, inviteId);
  if (input.role !== undefined && input.role !== invite.role && !access.isAdmin)
    throw permissionDenied(MESSAGES.organizationAdmin);
  const current = await currentRows(db, inviteId);
  const plan = await planWorkspaceRows(db, access, current, input.workspaces ?? null);
  await db.transaction(async (tx) => {
    if (input.role !== undefined && input.role !== invite.role)
      await tx
        .update(organizationInvites)
        .set({ role: input.role })
        .where(eq(organizationInvites.id, inviteId));
    if (!isEmptyPlan(plan))
      await applyRowPlan(tx, workspaceInvites, plan, (rows) =>
        tx.insert(workspaceInvites).values(inviteRows(inviteId, rows)),
      );
  });
  return getInvite(db, access, inviteId);
}

export async function deleteInvite(
  db: Db,
  organizationAccess: OrganizationAccess,
  inviteId: number,
): Promise<void> {
  const { invite, access } = await inviteIn(db, organizationAccess, inviteId);
  assertMayRemove(access, invite, await currentRows(db, inviteId));
  await db.delete(organizationInvites).where(eq(organizationInvites.id, inviteId));
}

/** Mails the invitation again with a new token (the old link stops working) and a fresh expiration. */
export async function resendInvite(
  deps: Deps,
  organizationAccess: OrganizationAccess,
  inviteId: number,
): Promise<Invite> {
  const { db } = deps;
  const { invite, access } = await inviteIn(db, organizationAccess, inviteId);
  await db.transaction(async (tx) => {
    const { token, tokenHash } = mintInviteToken();
    const [renewed] = await tx
      .update(organizationInvites)
      .set({ expiration: new Date(Date.now() + INVITE_TTL), tokenHash })
      .where(eq(organizationInvites.id, invite.id))
      .returning();
    await mailInvite(tx, deps, { invite: renewed!, token }, access.organization, access.user);
  });
  deps.loops.wake('mail-outbox');
  return getInvite(db, access, inviteId);
}

/** A workspace invite row by id; its workspace is what the workspace-invite routes resolve access to. */
export async function findWorkspaceInvite(db: Db, workspaceInviteId: number) {
  const [row] = await db
    .select({ row: workspaceInvites, invite: organizationInvites })
    .from(workspaceInvites)
    .innerJoin(organizationInvites, eq(organizationInvites.id, workspaceInvites.organizationInviteId))
    .where(eq(workspaceInvites.id, workspaceInviteId));
  if (!row) throw notFound();
  return row;
}

/** A workspace invite of the workspace the caller administers. */
async function workspaceInviteIn(db: Db, access: WorkspaceAccess, workspaceInviteId: number) {
  const row = await findWorkspaceInvite(db, workspaceInviteId);
  if (row.row.workspaceId !== access.workspace.id) throw notFound();
  return row;
}

export async function updateWorkspaceInvite(
  db: Db,
  access: WorkspaceAccess,
  workspaceInviteId: number,
  input: z.infer<typeof updateWorkspaceInviteBody>,
): Promise<z.infer<typeof workspaceInviteSchema>> {
  const { row, invite } = await workspaceInviteIn(db, access, workspaceInviteId);
  const changes = {
    ...(input.is_admin !== undefined && { isAdmin: input.is_admin }),
    ...(input.core_limit !== undefined && { coreLimit: input.core_limit }),
    ...(input.credit_limit !== undefined && { creditLimit: input.credit_limit }),
  };
  if (Object.keys(changes).length === 0) return presentWorkspaceInvite(row, invite);
  const [updated] = await db
    .update(workspaceInvites)
    .set(changes)
    .where(eq(workspaceInvites.id, workspaceInviteId))
    .returning();
  return presentWorkspaceInvite(updated!, invite);
}

export async function deleteWorkspaceInvite(
  db: Db,
  access: WorkspaceAccess,
  workspaceInviteId: number,
): Promise<void> {
  await workspaceInviteIn(db, access, workspaceInviteId);
  await db.delete(workspaceInvites).where(eq(workspaceInvites.id, workspaceInviteId));
}
