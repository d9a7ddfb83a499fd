import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.js';
import {
  organizations,
  organizationMemberships as orgMemberships,
  type User,
  type UserProfile,
  userProfiles,
  users,
  workspaceMemberships,
  workspaces,
} from '../../../db/schema/index.js';
import { conflict, fieldError, notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { uniqueViolation } from '../../../lib/db-errors.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { isSlug, SLUG_MESSAGE } from '../auth/rules.js';
import { presentOrganizationBrief, presentWorkspaceBrief } from '../organizations/present.js';
import { presentMemberships } from '../organizations/present-members.js';
import type { BillingPort } from '../ports.js';
import type {
  currentUserSchema,
  membershipSchema,
  organizationMembershipSchema,
  profilePatchBody,
  profileSchema,
} from './schemas.js';

async function profileOf(db: Db, userId: number): Promise<UserProfile> {
  const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  if (profile) return profile;
  const [created] = await db.insert(userProfiles).values({ userId }).onConflictDoNothing().returning();
  return created ?? (await profileOf(db, userId));
}

const presentProfile = (p: UserProfile): z.infer<typeof profileSchema> => ({
  avatar_url: p.avatarUrl,
  can_contact: p.canContact,
  company: p.company,
  phone_number: p.phoneNumber,
  title: p.title,
  work_email: p.workEmail,
  has_git_access_token: p.gitAccessTokenEnc !== null,
  has_ssh_public_key: p.sshPublicKey !== null,
});

const defaultOrganization = alias(organizations, 'default_organization');
const defaultWorkspaceOrganization = alias(organizations, 'default_account_organization');

const prepareCurrentUser = (db: Db) =>
  db
    .select({
      user: users,
      profile: userProfiles,
      workspace: workspaces,
      workspaceOrganization: defaultWorkspaceOrganization,
      organization: defaultOrganization,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(workspaces, eq(workspaces.id, users.defaultWorkspaceId))
    .leftJoin(defaultWorkspaceOrganization, eq(defaultWorkspaceOrganization.id, workspaces.organizationId))
    .leftJoin(defaultOrganization, eq(defaultOrganization.id, users.defaultOrganizationId))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('current_user');
const currentUserQueries = new WeakMap<Db, ReturnType<typeof prepareCurrentUser>>();

/**
 * One prepared query: user/me is read on every page load and by every client start. The user's
 * row is read again with the rest, so the answer is of one moment (routes cache it).
 */
export async function currentUser(db: Db, signedIn: User): Promise<z.infer<typeof currentUserSchema>> {
  let query = currentUserQueries.get(db);
  if (!query) {
    query = prepareCurrentUser(db);
    currentUserQueries.set(db, query);
  }
  const [row] = await query.execute({ userId: signedIn.id });
  const user = row?.user ?? signedIn;
  const profile = row?.profile ?? (await profileOf(db, user.id));
  return {
    id: user.id,
    username: user.username,
    full_name: user.fullName,
    preferred_name: user.preferredName,
    email: user.email,
    is_staff: user.isStaff,
    has_usable_password: user.passwordHash !== null,
    // Whoever has a workspace to start a notebook in sees the page; staff's switch shows it to others.
    should_see_notebook_page: user.shouldSeeNotebookPage || Boolean(row?.workspace),
    email_verified: user.emailVerifiedAt !== null,
    default_account:
      row?.workspace && row.workspaceOrganization
        ? presentWorkspaceBrief(row.workspace, row.workspaceOrganization)
        : null,
    default_organization: row?.organization ? presentOrganizationBrief(row.organization) : null,
    profile: presentProfile(profile),
    cumulus_hosted_monthly_limit: null,
    date_joined: isoTime(user.dateJoined),
    last_login: isoTimeOrNull(user.lastLogin),
  };
}

/** The workspaces the user is a member of, their default first, then by name. */
export async function memberships(db: Db, user: User): Promise<z.infer<typeof membershipSchema>[]> {
  const rows = await db
    .select({ membership: workspaceMemberships, workspace: workspaces, organization: organizations })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(eq(workspaceMemberships.userId, user.id))
    .orderBy(asc(workspaces.name));
  return rows
    .map((r) => ({
      id: r.membership.id,
      account: presentWorkspaceBrief(r.workspace, r.organization),
      is_admin: r.membership.isAdmin,
      is_default_account: r.workspace.id === user.defaultWorkspaceId,
      credit_limit: r.membership.creditLimit,
      core_limit: r.membership.coreLimit,
    }))
    .sort((a, b) => Number(b.is_default_account) - Number(a.is_default_account));
}

/** The user's organization memberships with their organizations, by organization name. */
export const organizationMembershipRows = (db: Db, user: User) =>
  db
    .select({ membership: orgMemberships, organization: organizations })
    .from(orgMemberships)
    .innerJoin(organizations, eq(organizations.id, orgMemberships.organizationId))
    .where(eq(orgMemberships.userId, user.id))
    .orderBy(asc(organizations.name));

export async function organizationMemberships(
  db: Db,
  billing: BillingPort,
  user: User,
): Promise<z.infer<typeof organizationMembershipSchema>[]> {
  return presentMemberships(db, billing, await organizationMembershipRows(db, user));
}

/** Makes one of the user's organizations the default, and one of its workspaces if theirs is elsewhere. */
export async function changeDefaultOrganization(db: Db, user: User, organizationId: number): Promise<User> {
  const [membership] = await db
    .select({ id: orgMemberships.id })
    .from(orgMemberships)
    .where(and(eq(orgMemberships.userId, user.id), eq(orgMemberships.organizationId, organizationId)));
  if (!membership) throw notFound();
  const [workspace] = await db
    .select({ id: workspaces.id })
    .from(workspaceMemberships)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
    .where(and(eq(workspaceMemberships.userId, user.id), eq(workspaces.organizationId, organizationId)))
    .orderBy(sql`${workspaces.id} = ${user.defaultWorkspaceId ?? 0} desc`, asc(workspaces.name))
    .limit(1);
  const [updated] = await db
    .update(users)
    .set({ defaultOrganizationId: organizationId, ...(workspace && { defaultWorkspaceId: workspace.id }) })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

export async function updateMe(
  db: Db,
  user: User,
  input: { username?: string | undefined; default_account?: number | undefined },
) {
  const changes: Partial<typeof users.$inferInsert> = {};
  if (input.username !== undefined) {
    if (!isSlug(input.username)) throw fieldError('username', SLUG_MESSAGE);
    changes.username = input.username.toLowerCase();
  }
  if (input.default_account !== undefined) {
    const [membership] = await db
      .select({ workspaceId: workspaceMemberships.workspaceId, organizationId: workspaces.organizationId })
      .from(workspaceMemberships)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMemberships.workspaceId))
      .where(
        and(
          eq(workspaceMemberships.userId, user.id),
          eq(workspaceMemberships.workspaceId, input.default_account),
        ),
      )
      .limit(1);
    if (!membership) throw fieldError('default_account', 'User is not a member of this workspace.');
    changes.defaultWorkspaceId = membership.workspaceId;
    changes.defaultOrganizationId = membership.organizationId;
  }
  if (Object.keys(changes).length === 0) return user;
  try {
    const [updated] = await db.update(users).set(changes).where(eq(users.id, user.id)).returning();
    return updated!;
  } catch (err) {
    if (uniqueViolation(err) === 'users_username_key')
      throw conflict('That username already exists.', 'USERNAME_TAKEN');
    throw err;
  }
}

export async function updateProfile(db: Db, user: User, input: z.infer<typeof profilePatchBody>) {
  const { full_name, preferred_name, title, company, work_email, phone_number, can_contact } = input;
  await db.transaction(async (tx) => {
    if (full_name !== undefined || preferred_name !== undefined) {
      await tx
        .update(users)
        .set({
          ...(full_name !== undefined && { fullName: full_name }),
          ...(preferred_name !== undefined && { preferredName: preferred_name }),
        })
        .where(eq(users.id, user.id));
    }
    await profileOf(tx, user.id);
    const profileChanges = {
      ...(title !== undefined && { title }),
      ...(company !== undefined && { company }),
      ...(work_email !== undefined && { workEmail: work_email.toLowerCase() }),
      ...(phone_number !== undefined && { phoneNumber: phone_number }),
      ...(can_contact !== undefined && { canContact: can_contact }),
    };
    if (Object.keys(profileChanges).length > 0) {
      await tx.update(userProfiles).set(profileChanges).where(eq(userProfiles.userId, user.id));
    }
  });
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id));
  const profile = await profileOf(db, user.id);
  return { full_name: fresh!.fullName, preferred_name: fresh!.preferredName, ...presentProfile(profile) };
}

/** The token is kept encrypted; only whether one is set is ever read back. */
export async function setGitAccessToken(db: Db, secrets: SecretBox, user: User, token: string | null) {
  await profileOf(db, user.id);
  await db
    .update(userProfiles)
    .set({ gitAccessTokenEnc: token === null ? null : secrets.encrypt(token) })
    .where(eq(userProfiles.userId, user.id));
  return { has_git_access_token: token !== null };
}
