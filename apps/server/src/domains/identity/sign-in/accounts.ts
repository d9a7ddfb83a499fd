import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type User, userIdentities, userProfiles, users } from '../../../db/schema/index.js';
import { uniqueViolation } from '../../../lib/db-errors.js';
import { findUserBy, openSession } from '../auth/service.js';
import { createPersonalWorkspace } from '../organizations/personal.js';
import type { IdentityDeps } from '../ports.js';
import { isWorkspaceNameFree } from '../workspaces/names.js';
import type { PendingLink } from './cookies.js';
import { SIGN_IN_MESSAGES as M, refusal } from './messages.js';
import { joinConnectionWorkspaces, type OrganizationConnection } from './organization-sso.js';
import type { ProviderIdentity } from './providers.js';
import { assertSsoNotRequired } from './require-sso.js';

export type SignInOutcome =
  | { kind: 'signed-in'; key: string; existing: boolean; userId: number }
  /** The verified address belongs to an account this identity is not linked to: its owner must prove it. */
  | { kind: 'link-required'; link: PendingLink };

/**
 * Signs in the user linked to a provider identity; a first sign-in with a verified address no
 * account has creates the user (and their personal workspace). An address an account already has
 * links nothing by itself: the owner proves the account first (see linkPending).
 */
export async function signInWithIdentity(
  deps: IdentityDeps,
  identity: ProviderIdentity,
  providerName: string,
  via: OrganizationConnection | null = null,
) {
  const { db } = deps;
  const [linked] = await db
    .select({ identity: userIdentities, user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(
      and(
        eq(userIdentities.provider, identity.provider),
        eq(userIdentities.issuer, identity.issuer),
        eq(userIdentities.subject, identity.subject),
      ),
    )
    .limit(1);
  if (linked) {
    if (!linked.user.isActive) throw refusal(M.inactive, 'SIGN_IN_INACTIVE');
    await assertSsoNotRequired(db, linked.user.id, via?.organizationId ?? null);
    const key = await db.transaction(async (tx) => {
      await tx
        .update(userIdentities)
        .set({
          lastUsedAt: new Date(),
          ...(identity.email && identity.emailVerified ? { email: identity.email } : {}),
        })
        .where(eq(userIdentities.id, linked.identity.id));
      return openSession(tx, linked.user);
    });
    return { kind: 'signed-in', key, existing: true, userId: linked.user.id } satisfies SignInOutcome;
  }

  if (!identity.email || !identity.emailVerified) {
    throw refusal(M.noVerifiedEmail(providerName), 'SIGN_IN_NO_VERIFIED_EMAIL');
  }
  const owner = await findUserBy(db, 'email', identity.email);
  if (owner) return linkRequired(identity, owner);

  try {
    const created = await createUser(deps, identity);
    // A first sign-in through an organization's connection joins the workspaces it names.
    if (via && created.kind === 'signed-in') await joinConnectionWorkspaces(db, via, created.userId);
    return created;
  } catch (err) {
    // Someone registered the address between the look-up and the insert.
    if (uniqueViolation(err) === 'users_email_key') {
      const now = await findUserBy(db, 'email', identity.email);
      if (now) return linkRequired(identity, now);
    }
    throw err;
  }
}

function linkRequired(identity: ProviderIdentity, owner: User): SignInOutcome {
  return {
    kind: 'link-required',
    link: {
      provider: identity.provider,
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email ?? '',
      userId: owner.id,
    },
  };
}

async function createUser(deps: IdentityDeps, identity: ProviderIdentity): Promise<SignInOutcome> {
  const { db, config } = deps;
  const email = identity.email as string;
  const username = await freeUsername(db, identity.usernameHint || email);
  const result = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        username,
        email,
        // No password: this user signs in through the provider (a password can be set by reset).
        passwordHash: null,
        fullName: identity.fullName.slice(0, 254),
        preferredName: (identity.fullName.split(' ')[0] ?? '').slice(0, 150),
        isStaff: config.staffEmails.has(email),
        // The provider verified the address.
        emailVerifiedAt: new Date(),
      })
      .returning();
    await tx.insert(userProfiles).values({ userId: user!.id, workEmail: email });
    await createPersonalWorkspace(tx, deps.identityPorts.plans, user!);
    await tx.insert(userIdentities).values({
      userId: user!.id,
      provider: identity.provider,
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      lastUsedAt: new Date(),
    });
    const key = await openSession(tx, user!);
    return { key, userId: user!.id };
  });
  return { kind: 'signed-in', key: result.key, existing: false, userId: result.userId };
}

/** A username (and personal workspace name) no one has, from the provider's username or the email. */
async function freeUsername(db: Db, hint: string): Promise<string> {
  const base =
    (hint.split('@')[0] ?? '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'user';
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate =
      attempt === 0 ? base : `${base}-${attempt < 10 ? attempt + 1 : Math.floor(Math.random() * 1e6)}`;
    if (!(await findUserBy(db, 'username', candidate)) && (await isWorkspaceNameFree(db, candidate))) {
      return candidate;
    }
  }
  throw new Error('No free username found');
}

/**
 * Links the identity a provider sign-in left waiting, if `user` is the account it waits for: the
 * user just proved the account (password, or another linked provider). Returns whether it linked.
 */
export async function linkPending(db: Db, link: PendingLink | null, user: User): Promise<boolean> {
  if (!link || link.userId !== user.id) return false;
  await db
    .insert(userIdentities)
    .values({
      userId: user.id,
      provider: link.provider,
      issuer: link.issuer,
      subject: link.subject,
      email: link.email,
    })
    .onConflictDoNothing();
  return true;
}

export interface IdentityView {
  id: number;
  provider: string;
  email: string;
  created: string;
  last_used: string | null;
}

export async function listIdentities(db: Db, userId: number): Promise<IdentityView[]> {
  const rows = await db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.created), asc(userIdentities.id));
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    email: row.email,
    created: row.created.toISOString(),
    last_used: row.lastUsedAt?.toISOString() ?? null,
  }));
}

export const UNLINK_LAST_METHOD =
  'This is your only way to sign in. Set a password (Forgot password on the login page) or link another sign-in first.';

/** Unlinks one identity while another way to sign in (a password, another identity) remains. */
export async function unlinkIdentity(db: Db, user: User, identityId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock the user's identities so two concurrent unlinks cannot remove the last two together.
    const rows = await tx
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(eq(userIdentities.userId, user.id))
      .for('update');
    if (!rows.some((row) => row.id === identityId)) return false;
    const [fresh] = await tx
      .select({ hasPassword: sql<boolean>`${users.passwordHash} is not null` })
      .from(users)
      .where(eq(users.id, user.id));
    if (!fresh?.hasPassword && rows.length <= 1) throw refusal(UNLINK_LAST_METHOD, 'LAST_SIGN_IN_METHOD');
    await tx.delete(userIdentities).where(eq(userIdentities.id, identityId));
    return true;
  });
}
