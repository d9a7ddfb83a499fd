import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  apiTokens,
  authSessions,
  emailVerifications,
  passwordResets,
  type User,
  userProfiles,
  users,
} from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { FieldErrorCollector, fieldError, nonFieldError, notFound } from '../../../http/errors.js';
import { randomHex, sha256 } from '../../../lib/crypto.js';
import { uniqueViolation } from '../../../lib/db-errors.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../../lib/passwords.js';
import { days, hours } from '../../../lib/time.js';
import { enqueueEmail } from '../../../mail/outbox.js';
import { passwordResetEmail, usernameEmail, verificationEmail } from '../../../mail/templates.js';
import { acceptInviteByToken, acceptInvites } from '../invites/accept.js';
import { inviteByToken } from '../invites/token.js';
import { createPersonalWorkspace } from '../organizations/personal.js';
import type { IdentityDeps } from '../ports.js';
import { assertSsoNotRequired } from '../sign-in/require-sso.js';
import { isWorkspaceNameFree } from '../workspaces/names.js';
import {
  accountSubject,
  addressSubject,
  assertNotLocked,
  clearAccountFailures,
  type LoginSubjects,
  recordFailure,
} from './lockout.js';
import { checkPassword } from './rules.js';

export const VERIFICATION_KEY_TTL = days(3);
export const PASSWORD_RESET_TTL = hours(24);

export const MESSAGES = {
  verificationSent: 'Verification e-mail sent.',
  alreadyVerified: 'E-mail already verified.',
  verified: 'ok',
  resetSent: 'Password reset e-mail has been sent.',
  resetDone: 'Password has been reset with the new password.',
  passwordSaved: 'New password has been saved.',
  usernameSent: 'An e-mail with your username has been sent.',
  badCredentials: 'Unable to log in with provided credentials.',
  notVerified: 'E-mail is not verified.',
  duplicateUsername: 'A user with that username already exists.',
  duplicateEmail:
    'A user is already registered with this e-mail address. If it is yours, use Forgot password on the login page to set a password and sign in.',
  passwordMismatch: "The two password fields didn't match.",
} as const;

export interface Registration {
  username: string;
  email: string;
  password1: string;
  password2: string;
  full_name: string;
  preferred_name: string;
  /** The token of the invitation link the person came through, if any. */
  invite?: string | null | undefined;
}

/**
 * A new account; answers whether its address is confirmed already: signing up through an
 * invitation's link with the address it was mailed to proves the address as the verification mail
 * would (no second mail to click), and the address's invitations are accepted at once.
 */
export async function register(deps: IdentityDeps, input: Registration): Promise<{ verified: boolean }> {
  const { db, config } = deps;
  const email = input.email.toLowerCase();
  const errors = new FieldErrorCollector();
  checkPassword(errors, 'password1', input.password1, { username: input.username, email });
  if (input.password1 !== input.password2) errors.add('password2', MESSAGES.passwordMismatch);
  if (await findUserBy(db, 'username', input.username)) errors.add('username', MESSAGES.duplicateUsername);
  else if (!(await isWorkspaceNameFree(db, input.username))) {
    // The personal workspace takes the username as its slug, so it must be free too.
    errors.add('username', MESSAGES.duplicateUsername);
  }
  if (await findUserBy(db, 'email', email)) errors.add('email', MESSAGES.duplicateEmail);
  errors.throwIfAny();

  const passwordHash = await hashPassword(input.password1);
  let verified = false;
  try {
    await db.transaction(async (tx) => {
      const invite = input.invite ? await inviteByToken(tx, input.invite) : null;
      verified = invite?.email === email;
      const [user] = await tx
        .insert(users)
        .values({
          username: input.username,
          email,
          passwordHash,
          fullName: input.full_name,
          preferredName: input.preferred_name,
          isStaff: config.staffEmails.has(email),
          emailVerifiedAt: verified ? new Date() : null,
        })
        .returning();
      await tx.insert(userProfiles).values({ userId: user!.id, workEmail: email });
      await createPersonalWorkspace(tx, deps.identityPorts.plans, user!);
      // The invitations of the address wait for it to be confirmed (confirmAddress): until then
      // whoever registered it may be someone else. A mailed link's token shows the mail reached them.
      await acceptInviteByToken(tx, user!, input.invite);
      if (verified) await acceptInvites(tx, user!);
      else await sendVerification(tx, deps, user!);
    });
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === 'users_email_key') throw fieldError('email', MESSAGES.duplicateEmail);
    if (constraint) throw fieldError('username', MESSAGES.duplicateUsername);
    throw err;
  }
  if (!verified) deps.loops.wake('mail-outbox');
  return { verified };
}

async function sendVerification(tx: Db, deps: Deps, user: User): Promise<void> {
  const key = randomHex(32);
  await tx.insert(emailVerifications).values({ userId: user.id, keyHash: sha256(key) });
  const link = `${deps.config.publicUrl}/verify-email-confirm/${key}`;
  await enqueueEmail(tx, verificationEmail(user.email, user.username, link));
}

/** `ok` the first time, `E-mail already verified.` after; unknown or expired keys are not found. */
export async function verifyEmail(db: Db, key: string): Promise<string> {
  const [row] = await db
    .select({ verification: emailVerifications, user: users })
    .from(emailVerifications)
    .innerJoin(users, eq(users.id, emailVerifications.userId))
    .where(eq(emailVerifications.keyHash, sha256(key)))
    .limit(1);
  if (!row) throw notFound();
  if (row.user.emailVerifiedAt) return MESSAGES.alreadyVerified;
  if (row.verification.usedAt || row.verification.created.getTime() < Date.now() - VERIFICATION_KEY_TTL) {
    throw notFound();
  }
  await db.transaction(async (tx) => {
    await tx
      .update(emailVerifications)
      .set({ usedAt: new Date() })
      .where(eq(emailVerifications.id, row.verification.id));
    await confirmAddress(tx, row.user);
  });
  return MESSAGES.verified;
}

/**
 * The user's address is confirmed (a link mailed to it was opened): it is marked verified, and its
 * invitations become memberships. Only then is the account taken to be the address owner's.
 */
export async function confirmAddress(tx: Db, user: User): Promise<void> {
  const emailVerifiedAt = user.emailVerifiedAt ?? new Date();
  if (!user.emailVerifiedAt) await tx.update(users).set({ emailVerifiedAt }).where(eq(users.id, user.id));
  await acceptInvites(tx, { ...user, emailVerifiedAt });
}

/** Ends every session and API token of the user. */
export async function endCredentials(tx: Db, userId: number): Promise<void> {
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
  await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
}

/** Always the same answer, so the form does not reveal which addresses have workspaces. */
export async function resendConfirmation(deps: Deps, email: string): Promise<void> {
  const user = await findUserBy(deps.db, 'email', email.toLowerCase());
  if (!user || user.emailVerifiedAt || !user.isActive) return;
  await deps.db.transaction((tx) => sendVerification(tx, deps, user));
  deps.loops.wake('mail-outbox');
}

export async function retrieveUsername(deps: Deps, email: string): Promise<void> {
  const user = await findUserBy(deps.db, 'email', email.toLowerCase());
  if (!user?.isActive) return;
  await enqueueEmail(deps.db, usernameEmail(user.email, user.username, `${deps.config.publicUrl}/login`));
  deps.loops.wake('mail-outbox');
}

export interface LoginInput {
  username?: string | undefined;
  email?: string | undefined;
  password: string;
  ip: string;
  /** The token of the invitation link the person came through, if any. */
  invite?: string | null | undefined;
}

export async function login(db: Db, input: LoginInput): Promise<string> {
  return (await loginUser(db, input)).key;
}

/** A password sign-in: the session key and whom it signed in. */
export async function loginUser(db: Db, input: LoginInput): Promise<{ key: string; user: User }> {
  // An entry with an at-sign is an email, whichever field it came in.
  const entry = (input.email || input.username || '').trim().toLowerCase();
  if (!entry) throw nonFieldError('Must include "username" or "email" and "password".');
  const user = await findUserBy(db, entry.includes('@') ? 'email' : 'username', entry);
  const subjects: LoginSubjects = {
    account: user ? accountSubject(user.id) : `name:${entry}`,
    address: addressSubject(input.ip),
  };
  await assertNotLocked(db, subjects);

  const passwordOk = user ? await verifyPassword(user.passwordHash, input.password) : false;
  if (!user) await burnPasswordCheck(input.password);
  if (!user || !passwordOk || !user.isActive) {
    await recordFailure(db, subjects);
    throw nonFieldError(MESSAGES.badCredentials);
  }
  if (!user.emailVerifiedAt) throw nonFieldError(MESSAGES.notVerified);
  // A member of an organization that requires SSO signs in through its connection only.
  await assertSsoNotRequired(db, user.id);

  const key = await db.transaction(async (tx) => {
    await clearAccountFailures(tx, user.id);
    return openSession(tx, user, input.invite);
  });
  return { key, user };
}

/** A new session key for a user who proved who they are (password or provider); invites accepted. */
export async function openSession(tx: Db, user: User, invite?: string | null): Promise<string> {
  const key = randomHex(20);
  await tx.insert(authSessions).values({ userId: user.id, keyHash: sha256(key), lastUsedAt: new Date() });
  await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
  await acceptInvites(tx, user);
  await acceptInviteByToken(tx, user, invite);
  return key;
}

export async function logout(db: Db, sessionId: number | null): Promise<void> {
  if (sessionId !== null) await db.delete(authSessions).where(eq(authSessions.id, sessionId));
}

export const encodeUid = (userId: number) => Buffer.from(String(userId)).toString('base64url');
const decodeUid = (uid: string): number | null => {
  const decoded = Buffer.from(uid, 'base64url').toString('utf8');
  return /^\d{1,10}$/.test(decoded) ? Number(decoded) : null;
};

export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const user = await findUserBy(deps.db, 'email', email.toLowerCase());
  if (!user?.isActive) return;
  const token = randomHex(20);
  await deps.db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({ userId: user.id, tokenHash: sha256(token) });
    const link = `${deps.config.publicUrl}/reset-password/key/${encodeUid(user.id)}/${token}`;
    await enqueueEmail(tx, passwordResetEmail(user.email, user.username, link));
  });
  deps.loops.wake('mail-outbox');
}

export interface ResetConfirm {
  uid: string;
  token: string;
  new_password1: string;
  new_password2: string;
}

export async function confirmPasswordReset(db: Db, input: ResetConfirm): Promise<void> {
  const userId = decodeUid(input.uid);
  const user = userId === null ? undefined : await findUserBy(db, 'id', userId);
  if (!user?.isActive) throw fieldError('uid', 'Invalid value');
  const [reset] = await db
    .select()
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.tokenHash, sha256(input.token)),
        eq(passwordResets.userId, user.id),
        isNull(passwordResets.usedAt),
      ),
    )
    .limit(1);
  if (!reset || reset.created.getTime() < Date.now() - PASSWORD_RESET_TTL)
    throw fieldError('token', 'Invalid value');
  checkNewPassword(user, input.new_password1, input.new_password2);

  const passwordHash = await hashPassword(input.new_password1);
  await db.transaction(async (tx) => {
    // Claim the token inside the transaction so two concurrent confirms cannot both succeed.
    const claimed = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    if (claimed.length === 0) throw fieldError('token', 'Invalid value');
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // An account whose address was not confirmed may have been registered by someone else: what
    // they hold ends with their password. Others end their sessions only.
    if (user.emailVerifiedAt) await tx.delete(authSessions).where(eq(authSessions.userId, user.id));
    else await endCredentials(tx, user.id);
    // Following the link proved the address belongs to the user.
    await confirmAddress(tx, user);
    await clearAccountFailures(tx, user.id);
  });
}

/** Sets a new password and ends every session of the user, the current one too. */
export async function changePassword(
  db: Db,
  user: User,
  password1: string,
  password2: string,
): Promise<void> {
  checkNewPassword(user, password1, password2);
  const passwordHash = await hashPassword(password1);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx.delete(authSessions).where(eq(authSessions.userId, user.id));
  });
}

function checkNewPassword(user: User, password1: string, password2: string): void {
  const errors = new FieldErrorCollector();
  checkPassword(errors, 'new_password1', password1, user);
  if (password1 !== password2) errors.add('new_password2', MESSAGES.passwordMismatch);
  errors.throwIfAny();
}

export async function findUserBy(
  db: Db,
  field: 'id' | 'username' | 'email',
  value: string | number,
): Promise<User | undefined> {
  const condition =
    field === 'id'
      ? eq(users.id, Number(value))
      : field === 'email'
        ? sql`lower(${users.email}) = ${String(value).toLowerCase()}`
        : eq(users.username, String(value));
  const [user] = await db.select().from(users).where(condition).limit(1);
  return user;
}
