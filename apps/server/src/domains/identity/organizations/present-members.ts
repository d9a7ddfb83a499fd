import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Organization,
  type OrganizationMembership,
  type User,
  userProfiles,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { isoTimeOrNull } from '../../../lib/time.js';
import type { BillingPort } from '../ports.js';
import { presentOrganizationBrief } from './present.js';
import type { memberUser, organizationMembershipSchema } from './schemas.js';

type MemberUser = z.infer<typeof memberUser>;

export const presentMemberUser = (user: User, avatarUrl: string | null): MemberUser => ({
  id: user.id,
  username: user.username,
  full_name: user.fullName,
  preferred_name: user.preferredName,
  profile: { avatar_url: avatarUrl },
});

/** The users behind some memberships, with their avatars, in one query. */
export async function memberUsers(db: Db, userIds: number[]): Promise<Map<number, MemberUser>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ user: users, avatarUrl: userProfiles.avatarUrl })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((r) => [r.user.id, presentMemberUser(r.user, r.avatarUrl ?? null)]));
}

/**
 * Organization memberships as the Team pages read them: the member, the role and the member's
 * rows in the organization's workspaces, and when the organization's trial ends (billing's, asked
 * through the port). Four queries whatever the number of memberships.
 */
export async function presentMemberships(
  db: Db,
  billing: BillingPort,
  rows: Array<{ membership: OrganizationMembership; organization: Organization }>,
): Promise<z.infer<typeof organizationMembershipSchema>[]> {
  if (rows.length === 0) return [];
  const userIds = rows.map((r) => r.membership.userId);
  const orgIds = [...new Set(rows.map((r) => r.organization.id))];
  const [people, workspaceRows, trials] = await Promise.all([
    memberUsers(db, userIds),
    db
      .select({ membership: workspaceMemberships, organizationId: workspaces.organizationId })
      .from(workspaceMemberships)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
      .where(and(inArray(workspaceMemberships.userId, userIds), inArray(workspaces.organizationId, orgIds)))
      .orderBy(asc(workspaces.name)),
    billing.trialsOf(db, orgIds),
  ]);
  return rows.map(({ membership, organization }) => ({
    id: membership.id,
    user: people.get(membership.userId)!,
    role: membership.role,
    organization_id: organization.id,
    organization: presentOrganizationBrief(organization),
    workspace_memberships: workspaceRows
      .filter((w) => w.organizationId === organization.id && w.membership.userId === membership.userId)
      .map((w) => ({
        id: w.membership.id,
        workspace_id: w.membership.workspaceId,
        is_admin: w.membership.isAdmin,
        credit_limit: w.membership.creditLimit,
        core_limit: w.membership.coreLimit,
      })),
    // The console's trial banner counts down to the earliest of these across memberships.
    displayed_pro_trial_expiration: isoTimeOrNull(trials.get(organization.id) ?? null),
  }));
}
