import { and, asc, count, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  customGroups,
  type Organization,
  organizationCustomGroups,
  organizationMemberships,
  organizations,
  type Plan,
  type User,
  userProfiles,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import { badRequest } from '../../../http/errors.js';
import { type OffsetQuery, paginate } from '../../../http/pagination.js';
import type { z } from '../../../http/zod.js';
import { contains, startsWith } from '../../../lib/sql.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import type { OrganizationAccess } from '../access/organization.js';
import { pendingInviteCount } from '../invites/service.js';
import type { IdentityPorts, PlanPort } from '../ports.js';
import { repairDefaults } from './defaults.js';
import { planGatesOf } from './plan-fields.js';
import { presentOrganizationBrief } from './present.js';
import { presentMemberUser } from './present-members.js';
import type { organizationSchema, organizationSummarySchema } from './schemas.js';

type OrganizationOut = z.infer<typeof organizationSchema>;
type Summary = z.infer<typeof organizationSummarySchema>;

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */

const planOf = (p: Plan) => ({
  feature_tier: p.tier,
  member_limit: p.memberLimit,
  workspace_limit: p.workspaceLimit,
  seat_limit: p.seatLimit,
});

/** Members, pending invites and workspaces: what the plan limits count. */
export async function organizationCounts(db: Db, organizationId: number) {
  const [[members], [workspaceCount], pending] = await Promise.all([
    db
      .select({ n: count() })
      .from(organizationMemberships)
      .where(eq(organizationMemberships.organizationId, organizationId)),
    db.select({ n: count() }).from(workspaces).where(eq(workspaces.organizationId, organizationId)),
    pendingInviteCount(db, organizationId),
  ]);
  return { members: members?.n ?? 0, workspaces: workspaceCount?.n ?? 0, pendingInvites: pending };
}

async function presentOrganization(
  db: Db,
  { plans, billing: billingPort }: IdentityPorts,
  organization: Organization,
  viewer: User,
): Promise<OrganizationOut> {
  const [members, groups, counts, plan, billing] = await Promise.all([
    db
      .select({ membership: organizationMemberships, user: users, avatarUrl: userProfiles.avatarUrl })
      .from(organizationMemberships)
      .innerJoin(users, eq(users.id, organizationMemberships.userId))
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(eq(organizationMemberships.organizationId, organization.id))
      .orderBy(asc(users.username)),
    viewer.isStaff ? organizationGroups(db, organization.id) : Promise.resolve([]),
    organizationCounts(db, organization.id),
    plans.activePlan(db, organization.id),
    billingPort.billingOf(db, organization.id),
  ]);
  return {
    ...presentOrganizationBrief(organization),
    ...planOf(plan),
    active_program_id: plan.id,
    node_limit: plan.nodeLimit,
    credit_allotment: plan.creditAllotment,
    credit_limit: plan.organizationCreditLimit,
    dollars_spend_limit:
      plan.dollarsSpendLimitMicroUsd === null ? null : plan.dollarsSpendLimitMicroUsd / 1_000_000,
    spend_limit_should_stop_instances: billing.spendLimitShouldStopInstances,
    ...planGatesOf(plan),
    renew_date: plans.renewsAt(),
    billing_method: billing.billingMethod,
    cumulus_credit_value: billing.creditValueMicroUsd / 1_000_000,
    subscription_status: billing.subscriptionStatus,
    trial_expiration: isoTimeOrNull(billing.trialExpiration),
    next_phase_tier: billing.nextPhaseTier,
    cancel_at: isoTimeOrNull(billing.cancelAt),
    created: isoTime(organization.created),
    member_set: members.map((m) => ({
      id: m.membership.id,
      user: presentMemberUser(m.user, m.avatarUrl ?? null),
      role: m.membership.role,
    })),
    custom_groups: groups,
    member_count: counts.members,
    pending_invite_count: counts.pendingInvites,
    workspace_count: counts.workspaces,
  };
}

export async function organizationGroups(db: Db, organizationId: number): Promise<string[]> {
  const rows = await db
    .select({ name: customGroups.name })
    .from(organizationCustomGroups)
    .innerJoin(customGroups, eq(customGroups.id, organizationCustomGroups.groupId))
    .where(eq(organizationCustomGroups.organizationId, organizationId))
    .orderBy(asc(customGroups.name));
  return rows.map((r) => r.name);
}

/** A shared organization on the default plan, administered by its creator. */
export async function createOrganization(
  db: Db,
  ports: IdentityPorts,
  user: User,
  name: string,
): Promise<OrganizationOut> {
  const organization = await db.transaction(async (tx) => {
    const [created] = await tx.insert(organizations).values({ name }).returning();
    await ports.plans.startFirstPlan(tx, created!.id);
    await tx
      .insert(organizationMemberships)
      .values({ organizationId: created!.id, userId: user.id, role: 'admin' });
    return created!;
  });
  return presentOrganization(db, ports, organization, user);
}

export async function organizationDetails(
  db: Db,
  ports: IdentityPorts,
  { organization, user }: OrganizationAccess,
) {
  return presentOrganization(db, ports, organization, user);
}

/** The organizations the user belongs to (directly or through one of their workspaces). */
export async function listOrganizations(
  db: Db,
  plans: PlanPort,
  user: User,
  query: OffsetQuery & { search?: string | undefined },
): Promise<{ items: Summary[]; count: number }> {
  const viaWorkspaces = db
    .select({ id: workspaces.organizationId })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .where(eq(workspaceMemberships.userId, user.id));
  const direct = db
    .select({ id: organizationMemberships.organizationId })
    .from(organizationMemberships)
    .where(eq(organizationMemberships.userId, user.id));
  const where = and(
    or(inArray(organizations.id, direct), inArray(organizations.id, viaWorkspaces)),
    query.search ? contains(organizations.name, query.search) : undefined,
  );
  return pageOrganizations(db, plans, user, where, query);
}

/** Every organization on the server, for staff; filtered by name and by custom group. */
export async function staffListOrganizations(
  db: Db,
  plans: PlanPort,
  user: User,
  query: OffsetQuery & { search?: string | undefined; custom_group?: string | undefined },
): Promise<{ items: Summary[]; count: number }> {
  const inGroup = query.custom_group
    ? inArray(
        organizations.id,
        db
          .select({ id: organizationCustomGroups.organizationId })
          .from(organizationCustomGroups)
          .innerJoin(customGroups, eq(customGroups.id, organizationCustomGroups.groupId))
          .where(eq(customGroups.name, query.custom_group)),
      )
    : undefined;
  const where = and(query.search ? contains(organizations.name, query.search) : undefined, inGroup);
  return pageOrganizations(db, plans, user, where, query);
}

async function pageOrganizations(
  db: Db,
  plans: PlanPort,
  user: User,
  where: SQL | undefined,
  page: OffsetQuery,
) {
  const { rows, count } = await paginate(
    page,
    db
      .select({ organization: organizations, role: organizationMemberships.role })
      .from(organizations)
      .leftJoin(
        organizationMemberships,
        and(
          eq(organizationMemberships.organizationId, organizations.id),
          eq(organizationMemberships.userId, user.id),
        ),
      )
      .where(where)
      .orderBy(asc(organizations.name), asc(organizations.id)),
    db.$count(organizations, where),
  );
  const active = await plans.activePlans(
    db,
    rows.map((r) => r.organization.id),
  );
  return {
    count,
    items: rows.map((r) => ({
      ...presentOrganizationBrief(r.organization),
      ...planOf(active.get(r.organization.id)!),
      role: r.role,
      created: isoTime(r.organization.created),
    })),
  };
}

/** Names for a staff search box: organizations whose name starts with the text. */
export async function staffListValues(db: Db, prefix: string, limit: number) {
  const where = startsWith(organizations.name, prefix);
  const { rows, count } = await paginate(
    { limit, offset: 0 },
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(where)
      .orderBy(asc(organizations.name), asc(organizations.id)),
    db.$count(organizations, where),
  );
  return { items: rows, count };
}

/** Deletes a shared organization with its workspaces, memberships and invitations. */
export async function deleteOrganization(db: Db, { organization }: OrganizationAccess): Promise<void> {
  const organizationId = organization.id;
  if (organization.isPersonal)
    throw badRequest('Personal organizations cannot be deleted.', 'PERSONAL_ORGANIZATION');
  await db.transaction(async (tx) => {
    const [members, workspaceMembers] = await Promise.all([
      tx
        .select({ userId: organizationMemberships.userId })
        .from(organizationMemberships)
        .where(eq(organizationMemberships.organizationId, organizationId)),
      tx
        .select({ userId: workspaceMemberships.userId })
        .from(workspaceMemberships)
        .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
        .where(eq(workspaces.organizationId, organizationId)),
    ]);
    await tx.delete(organizations).where(eq(organizations.id, organizationId));
    await repairDefaults(
      tx,
      [...members, ...workspaceMembers].map((m) => m.userId),
    );
  });
}
