import { and, asc, count, count as countAll, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  organizationInvites,
  organizationMemberships,
  organizations,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import {
  ApiError,
  badRequest,
  conflict,
  fieldError,
  notFound,
  permissionDenied,
} from '../../../http/errors.js';
import { countRows, type OffsetQuery, paginate } from '../../../http/pagination.js';
import type { z } from '../../../http/zod.js';
import { contains } from '../../../lib/sql.js';
import { MESSAGES } from '../access/messages.js';
import { mayRemoveFromOrganization, type OrganizationAccess } from '../access/organization.js';
import { isEmail } from '../auth/rules.js';
import { findUserBy } from '../auth/service.js';
import { createInvite } from '../invites/service.js';
import type { WorkspaceRowInput } from '../memberships/schemas.js';
import { applyRowPlan, planWorkspaceRows } from '../memberships/workspace-rows.js';
import type { BillingPort, IdentityDeps } from '../ports.js';
import { repairDefaults } from './defaults.js';
import { presentMemberships } from './present-members.js';
import type { addMembershipBody, organizationMembershipSchema, updateMembershipBody } from './schemas.js';
import { organizationCounts } from './service.js';

type Membership = z.infer<typeof organizationMembershipSchema>;

const lastAdmin = () => badRequest('An organization must have at least one admin.', 'LAST_ADMIN');

export async function membershipRow(db: Db, membershipId: number) {
  const [row] = await db
    .select({ membership: organizationMemberships, organization: organizations })
    .from(organizationMemberships)
    .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
    .where(eq(organizationMemberships.id, membershipId));
  if (!row) throw notFound();
  return row;
}

/** The member's rows in the organization's workspaces. */
const workspaceRowsOf = (db: Db, organizationId: number, userId: number) =>
  db
    .select({
      id: workspaceMemberships.id,
      workspaceId: workspaceMemberships.workspaceId,
      isAdmin: workspaceMemberships.isAdmin,
      coreLimit: workspaceMemberships.coreLimit,
      creditLimit: workspaceMemberships.creditLimit,
    })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .where(and(eq(workspaceMemberships.userId, userId), eq(workspaces.organizationId, organizationId)));

const accountRows = (userId: number, rows: WorkspaceRowInput[]) =>
  rows.map((w) => ({
    workspaceId: w.workspace_id,
    userId,
    isAdmin: w.is_admin,
    coreLimit: w.core_limit,
    creditLimit: w.credit_limit,
  }));

async function otherAdmins(db: Db, organizationId: number, membershipId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(organizationMemberships)
    .where(
      and(
        eq(organizationMemberships.organizationId, organizationId),
        eq(organizationMemberships.role, 'admin'),
        ne(organizationMemberships.id, membershipId),
      ),
    );
  return row?.n ?? 0;
}

export async function listMembers(
  db: Db,
  billing: BillingPort,
  { organization }: OrganizationAccess,
  query: OffsetQuery & { search?: string | undefined },
): Promise<{ items: Membership[]; count: number }> {
  const organizationId = organization.id;
  const where = and(
    eq(organizationMemberships.organizationId, organizationId),
    query.search ? contains(users.username, query.search) : undefined,
  );
  const { rows, count } = await paginate(
    query,
    db
      .select({ membership: organizationMemberships })
      .from(organizationMemberships)
      .innerJoin(users, eq(users.id, organizationMemberships.userId))
      .where(where)
      .orderBy(asc(users.username)),
    countRows(
      db
        .select({ n: countAll() })
        .from(organizationMemberships)
        .innerJoin(users, eq(users.id, organizationMemberships.userId))
        .where(where),
    ),
  );
  return {
    items: await presentMemberships(
      db,
      billing,
      rows.map((r) => ({ membership: r.membership, organization })),
    ),
    count,
  };
}

/** A membership of the organization the caller reads (the route resolves it from the membership). */
export async function getMembership(
  db: Db,
  billing: BillingPort,
  access: OrganizationAccess,
  membershipId: number,
): Promise<Membership> {
  const row = await membershipRow(db, membershipId);
  if (row.organization.id !== access.organization.id) throw notFound();
  return (await presentMemberships(db, billing, [row]))[0]!;
}

/**
 * Members plus pending invites plus the one being added may not exceed the plan's member limit,
 * nor its seat limit (each member, and each pending invite, holds a seat).
 */
async function assertMemberLimit(deps: IdentityDeps, db: Db, organization: Organization): Promise<void> {
  const { memberLimit, seatLimit } = await deps.identityPorts.plans.activePlan(db, organization.id);
  if (memberLimit === null && seatLimit === null) return;
  const counts = await organizationCounts(db, organization.id);
  const used = counts.members + counts.pendingInvites;
  const over = (limit: number | null) => limit !== null && used + 1 > limit;
  const refuse = (limit: number, code: string, field: string) =>
    badRequest(
      `Your organization is using ${used} of ${limit} allowed seats. Upgrade your plan to add more members.`,
      code,
      { seats_used: used, [field]: limit },
    );
  if (over(memberLimit)) throw refuse(memberLimit!, 'MEMBER_LIMIT_REACHED', 'member_limit');
  if (over(seatLimit)) throw refuse(seatLimit!, 'SEAT_LIMIT_REACHED', 'seat_limit');
}

/**
 * Adds someone by username or email. A known user becomes a member at once; an unknown email, or
 * one whose account has not confirmed it (whoever registered it may not own it), is invited (the
 * invite is mailed, and accepted once the address is confirmed); an unknown username is an error
 * the form shows on its field.
 */
export async function addMembership(
  deps: IdentityDeps,
  access: OrganizationAccess,
  input: z.infer<typeof addMembershipBody>,
) {
  const { db } = deps;
  if (input.role === 'admin' && !access.isAdmin) throw permissionDenied(MESSAGES.organizationAdmin);
  const plan = await planWorkspaceRows(db, access, [], input.workspaces);
  if (!access.isAdmin && plan.insert.length === 0) throw permissionDenied(MESSAGES.addTeammates);

  const entry = input.email_or_username.toLowerCase();
  const byEmail = entry.includes('@');
  if (byEmail && !isEmail(entry)) throw fieldError('email_or_username', 'Enter a valid email address.');
  const found = await findUserBy(db, byEmail ? 'email' : 'username', entry);
  const person = byEmail && !found?.emailVerifiedAt ? undefined : found;
  if (!person && !byEmail) {
    const detail = `Could not find a user with the username ${input.email_or_username}. Enter their email address to invite them.`;
    throw new ApiError(400, { detail, code: 'COULD_NOT_FIND_USER', email_or_username: [detail] });
  }

  const result = await db.transaction(async (tx) => {
    // One add at a time per organization, so concurrent adds cannot overshoot the member limit.
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, access.organization.id))
      .for('update');
    if (person) {
      const [existing] = await tx
        .select({ id: organizationMemberships.id })
        .from(organizationMemberships)
        .where(
          and(
            eq(organizationMemberships.organizationId, access.organization.id),
            eq(organizationMemberships.userId, person.id),
          ),
        );
      if (existing)
        throw conflict('User is already a member of this organization.', 'ALREADY_MEMBER', {
          membership_id: existing.id,
        });
      await assertMemberLimit(deps, tx, access.organization);
      const [membership] = await tx
        .insert(organizationMemberships)
        .values({ organizationId: access.organization.id, userId: person.id, role: input.role })
        .returning();
      if (plan.insert.length > 0)
        await tx
          .insert(workspaceMemberships)
          .values(accountRows(person.id, plan.insert))
          .onConflictDoNothing();
      const [presented] = await presentMemberships(tx, deps.identityPorts.billing, [
        { membership: membership!, organization: access.organization },
      ]);
      return { membership: presented!, invite: null };
    }
    const [invited] = await tx
      .select({ id: organizationInvites.id })
      .from(organizationInvites)
      .where(
        and(
          eq(organizationInvites.organizationId, access.organization.id),
          eq(organizationInvites.email, entry),
        ),
      );
    if (invited)
      throw conflict(`An invitation was already sent to ${entry}.`, 'ALREADY_INVITED', {
        invite_id: invited.id,
      });
    await assertMemberLimit(deps, tx, access.organization);
    const invite = await createInvite(tx, deps, {
      organization: access.organization,
      email: entry,
      role: input.role,
      workspaces: plan.insert,
      invitedBy: access.user,
    });
    return { membership: null, invite };
  });
  if (result.invite) deps.loops.wake('mail-outbox');
  return result;
}

export async function updateMembership(
  db: Db,
  billing: BillingPort,
  access: OrganizationAccess,
  membershipId: number,
  input: z.infer<typeof updateMembershipBody>,
): Promise<Membership> {
  const { membership } = await membershipRow(db, membershipId);
  if (membership.organizationId !== access.organization.id) throw notFound();
  const roleChange = input.role !== undefined && input.role !== membership.role ? input.role : null;
  if (roleChange && !access.isAdmin) throw permissionDenied(MESSAGES.organizationAdmin);
  if (roleChange === 'member' && (await otherAdmins(db, membership.organizationId, membershipId)) === 0)
    throw lastAdmin();
  const current = await workspaceRowsOf(db, membership.organizationId, membership.userId);
  const plan = await planWorkspaceRows(db, access, current, input.workspaces);
  await db.transaction(async (tx) => {
    if (roleChange)
      await tx
        .update(organizationMemberships)
        .set({ role: roleChange })
        .where(eq(organizationMemberships.id, membershipId));
    await applyRowPlan(tx, workspaceMemberships, plan, (rows) =>
      tx.insert(workspaceMemberships).values(accountRows(membership.userId, rows)),
    );
    if (plan.remove.length > 0) await repairDefaults(tx, [membership.userId]);
  });
  return getMembership(db, billing, access, membershipId);
}

/** Takes a member out of the organization and all of its workspaces. */
export async function removeMembership(
  db: Db,
  access: OrganizationAccess,
  membershipId: number,
): Promise<void> {
  const { membership } = await membershipRow(db, membershipId);
  if (membership.organizationId !== access.organization.id) throw notFound();
  const current = await workspaceRowsOf(db, membership.organizationId, membership.userId);
  if (
    !mayRemoveFromOrganization(
      access,
      membership.role,
      current.map((r) => r.workspaceId),
    )
  )
    throw permissionDenied(MESSAGES.organizationAdmin);
  if (membership.role === 'admin' && (await otherAdmins(db, membership.organizationId, membershipId)) === 0)
    throw lastAdmin();
  await db.transaction(async (tx) => {
    if (current.length > 0)
      await tx.delete(workspaceMemberships).where(
        inArray(
          workspaceMemberships.id,
          current.map((r) => r.id),
        ),
      );
    await tx.delete(organizationMemberships).where(eq(organizationMemberships.id, membershipId));
    await repairDefaults(tx, [membership.userId]);
  });
}
