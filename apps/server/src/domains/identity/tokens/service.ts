import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { apiTokens, type User } from '../../../db/schema/index.js';
import { fieldError, notFound } from '../../../http/errors.js';
import { type PageQuery, paginate } from '../../../http/pagination.js';
import { randomHex, sha256 } from '../../../lib/crypto.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { isPendingTokenUsable, PENDING_TOKEN_TTL } from '../auth/authenticator.js';
import type { OnboardingPort } from '../ports.js';
import { hashUserCode, MAX_CODE_ATTEMPTS, newUserCode, userCodeMatches } from './user-code.js';

export const CODE_MESSAGES = {
  wrong: (left: number) =>
    `That code does not match the one shown in your terminal (${left} ${left === 1 ? 'try' : 'tries'} left).`,
  exhausted: 'Too many wrong codes: this sign-in request is cancelled. Run cumulus login again.',
} as const;

type TokenRow = typeof apiTokens.$inferSelect;

export function present(token: TokenRow) {
  return {
    identifier: token.identifier,
    label: token.label,
    created: isoTime(token.created),
    expiry: isoTimeOrNull(token.expiry),
    expired: token.expiry !== null && token.expiry.getTime() <= Date.now(),
    revoked: token.revokedAt !== null,
    last_used: isoTimeOrNull(token.lastUsedAt),
  };
}

/** `<identifier>-<secret>`: the identifier is public, only the secret's hash is stored. */
function mint(): { identifier: string; secret: string; token: string } {
  const identifier = randomHex(8);
  const secret = randomHex(24);
  return { identifier, secret, token: `${identifier}-${secret}` };
}

/** A token made on the Profile page or claimed by `cumulus login` both tick `has-api-key`. */
/**
 * Mints a token the user holds at once (the Profile page's). `onboarding` ticks the user's has-api-key
 * flag; programs that make a token directly (tests, benches) may go without.
 */
export async function createToken(
  db: Db,
  user: User,
  input: { label?: string | null; expiry?: string | null },
  onboarding?: OnboardingPort,
) {
  let expiry: Date | null = null;
  if (input.expiry) {
    expiry = new Date(input.expiry);
    if (expiry.getTime() <= Date.now()) throw fieldError('expiry', 'Expiry must be in the future.');
  }
  const minted = mint();
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        identifier: minted.identifier,
        secretHash: sha256(minted.secret),
        userId: user.id,
        label: input.label ?? '',
        expiry,
        activatedAt: new Date(),
      })
      .returning();
    await onboarding?.tokenMade(tx, user.id);
    return row!;
  });
  return { ...present(row), token: minted.token };
}

export async function listTokens(db: Db, user: User, page: PageQuery) {
  const mine = eq(apiTokens.userId, user.id);
  const { rows, count } = await paginate(
    page,
    db.select().from(apiTokens).where(mine).orderBy(desc(apiTokens.created), desc(apiTokens.id)),
    db.$count(apiTokens, mine),
  );
  return { count, results: rows.map(present) };
}

export async function revokeToken(db: Db, user: User, identifier: string) {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.identifier, identifier), eq(apiTokens.userId, user.id)))
    .limit(1);
  if (!row) throw notFound();
  if (row.revokedAt) return present(row);
  const [updated] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(eq(apiTokens.id, row.id))
    .returning();
  return present(updated!);
}

/**
 * Terminal sign-in, step 1: a token that authenticates nothing until a user activates it, and the
 * short code the terminal prints for that user to type (device flow).
 */
export async function createPendingToken(db: Db, label: string | null | undefined) {
  const minted = mint();
  const userCode = newUserCode();
  const [row] = await db
    .insert(apiTokens)
    .values({
      identifier: minted.identifier,
      secretHash: sha256(minted.secret),
      label: label ?? '',
      userCodeHash: hashUserCode(userCode),
    })
    .returning();
  return {
    identifier: row!.identifier,
    token: minted.token,
    label: row!.label,
    created: isoTime(row!.created),
    expiry: isoTime(new Date(row!.created.getTime() + PENDING_TOKEN_TTL)),
    user_code: userCode,
  };
}

const pending = (identifier: string) =>
  and(eq(apiTokens.identifier, identifier), isNull(apiTokens.userId), isNull(apiTokens.revokedAt));

/**
 * Terminal sign-in, step 2: the signed-in user types the terminal's code; when it matches, the
 * pending token is theirs and acts as them. Every typed code uses one of `MAX_CODE_ATTEMPTS`
 * (counted in the row, so parallel guesses cannot go past it).
 */
export async function activateToken(
  db: Db,
  onboarding: OnboardingPort,
  user: User,
  identifier: string,
  typedCode: string,
) {
  const [row] = await db.select().from(apiTokens).where(pending(identifier)).limit(1);
  if (!row || !isPendingTokenUsable(row.created)) throw notFound();
  const [counted] = await db
    .update(apiTokens)
    .set({ codeAttempts: sql`${apiTokens.codeAttempts} + 1` })
    .where(and(pending(identifier), lt(apiTokens.codeAttempts, MAX_CODE_ATTEMPTS)))
    .returning({ attempts: apiTokens.codeAttempts });
  if (!counted) throw fieldError('user_code', CODE_MESSAGES.exhausted);
  if (!userCodeMatches(typedCode, row.userCodeHash)) {
    const left = MAX_CODE_ATTEMPTS - counted.attempts;
    throw fieldError('user_code', left > 0 ? CODE_MESSAGES.wrong(left) : CODE_MESSAGES.exhausted);
  }
  const activated = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(apiTokens)
      .set({ userId: user.id, activatedAt: new Date(), userCodeHash: null })
      .where(and(eq(apiTokens.id, row.id), isNull(apiTokens.userId)))
      .returning();
    if (claimed) {
      await onboarding.tokenMade(tx, user.id);
      // Only `cumulus login` asks for a pending token: the client is installed and was used.
      await onboarding.clientUsed(tx, user.id);
    }
    return claimed;
  });
  if (!activated) throw notFound();
  return present(activated);
}
