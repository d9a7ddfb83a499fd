import { and, eq, gt, isNull } from 'drizzle-orm';
import {
  identityLinkTokens,
  organizationMemberships,
  organizationSsoConnections,
  userIdentities,
  users,
} from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError } from '../../../http/errors.js';
import { randomHex, sha256 } from '../../../lib/crypto.js';
import { enqueueEmail } from '../../../mail/outbox.js';
import { identityLinkEmail } from '../../../mail/templates.js';
import { confirmAddress, endCredentials, openSession } from '../auth/service.js';
import type { PendingLink } from './cookies.js';
import { refusal } from './messages.js';
import { assertSsoNotRequired } from './require-sso.js';

/** The row of a link that was neither used nor left to expire. */
const usable = (token: string) =>
  and(
    eq(identityLinkTokens.tokenHash, sha256(token)),
    isNull(identityLinkTokens.usedAt),
    gt(identityLinkTokens.expiresAt, new Date()),
  );

export const LINK_EMAIL_TTL_MS = 30 * 60 * 1000;

export const LINK_EMAIL_MESSAGES = {
  nothingWaiting:
    'No sign-in is waiting to be linked in this browser, or it took longer than 30 minutes. Start again from the login page.',
  sent: (email: string) => `We sent a link to ${email}. Open it within 30 minutes to link this sign-in.`,
  invalid:
    'This link is not valid: it was already used, has expired, or was replaced. Start again from the login page.',
  linked: (provider: string) => `Linked. You can now sign in with ${provider}.`,
  passwordRemoved:
    'The password this account was registered with was removed, as its address had not been confirmed: to have one, use Forgot password on the login page.',
} as const;

/**
 * The other proof of an account (besides signing in to it): a single-use link, valid 30 minutes,
 * mailed to the account's address, that links the provider identity waiting in this browser.
 */
export async function mailLinkProof(
  deps: Deps,
  link: PendingLink | null,
  providerName: string,
): Promise<string> {
  if (!link) throw refusal(LINK_EMAIL_MESSAGES.nothingWaiting, 'IDENTITY_LINK_NOTHING_WAITING');
  const [owner] = await deps.db.select().from(users).where(eq(users.id, link.userId));
  if (!owner) throw refusal(LINK_EMAIL_MESSAGES.nothingWaiting, 'IDENTITY_LINK_NOTHING_WAITING');
  const token = randomHex(24);
  await deps.db.transaction(async (tx) => {
    await tx.insert(identityLinkTokens).values({
      tokenHash: sha256(token),
      userId: owner.id,
      provider: link.provider,
      issuer: link.issuer,
      subject: link.subject,
      email: link.email,
      expiresAt: new Date(Date.now() + LINK_EMAIL_TTL_MS),
    });
    const url = `${deps.config.publicUrl}/link-identity/${token}`;
    await enqueueEmail(tx, identityLinkEmail(owner.email, owner.username, providerName, url));
  });
  deps.loops.wake('mail-outbox');
  return owner.email;
}

/** What an unused mailed link would link (the page asks its owner before using it); refuses any other. */
export async function peekLinkProof(deps: Deps, token: string) {
  const [row] = await deps.db
    .select({
      provider: identityLinkTokens.provider,
      email: identityLinkTokens.email,
      username: users.username,
    })
    .from(identityLinkTokens)
    .innerJoin(users, eq(users.id, identityLinkTokens.userId))
    .where(usable(token));
  if (!row) throw refusal(LINK_EMAIL_MESSAGES.invalid, 'IDENTITY_LINK_INVALID');
  return row;
}

/**
 * Uses a mailed link once: links its identity to the account, and signs its owner in (the link
 * proved the account, as signing in to it would) unless the account may not sign in this way
 * (inactive, or a member of an organization that requires its own SSO). Returns the provider it
 * linked, the session key, if any, and whether it took a password away.
 *
 * The link reached the account's address, so it confirms the address. An account whose address
 * was not confirmed before is not taken to be the address owner's: whoever registered it may have
 * been someone else, waiting for the owner to link an identity and confirm. Its password, sessions
 * and API tokens go, so only the one who opened the link holds the account.
 */
export async function confirmLinkProof(
  deps: Deps,
  token: string,
): Promise<{ provider: string; key: string | null; passwordRemoved: boolean }> {
  let passwordRemoved = false;
  const row = await deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(identityLinkTokens)
      .set({ usedAt: new Date() })
      .where(usable(token))
      .returning();
    if (!used) throw refusal(LINK_EMAIL_MESSAGES.invalid, 'IDENTITY_LINK_INVALID');
    const [owner] = await tx.select().from(users).where(eq(users.id, used.userId)).for('update');
    if (owner && !owner.emailVerifiedAt) {
      passwordRemoved = owner.passwordHash !== null;
      await tx.update(users).set({ passwordHash: null }).where(eq(users.id, owner.id));
      await endCredentials(tx, owner.id);
      await confirmAddress(tx, owner);
    }
    await tx
      .insert(userIdentities)
      .values({
        userId: used.userId,
        provider: used.provider,
        issuer: used.issuer,
        subject: used.subject,
        email: used.email,
      })
      .onConflictDoNothing();
    return used;
  });
  return { provider: row.provider, key: await signInLinked(deps, row), passwordRemoved };
}

/** A session for the owner of a just-linked identity, as a sign-in through that identity would open. */
async function signInLinked(deps: Deps, row: typeof identityLinkTokens.$inferSelect): Promise<string | null> {
  const [owner] = await deps.db.select().from(users).where(eq(users.id, row.userId));
  if (!owner?.isActive) return null;
  // An identity from an organization's own connection counts as signing in through it.
  const [via] =
    row.provider === 'sso'
      ? await deps.db
          .select({ id: organizationSsoConnections.organizationId })
          .from(organizationSsoConnections)
          .innerJoin(
            organizationMemberships,
            eq(organizationMemberships.organizationId, organizationSsoConnections.organizationId),
          )
          .where(
            and(
              eq(organizationSsoConnections.issuer, row.issuer),
              eq(organizationMemberships.userId, owner.id),
            ),
          )
          .limit(1)
      : [];
  try {
    await assertSsoNotRequired(deps.db, owner.id, via?.id ?? null);
  } catch (error) {
    if (error instanceof ApiError && error.body.code === 'SSO_REQUIRED') return null;
    throw error;
  }
  return deps.db.transaction((tx) => openSession(tx, owner));
}
