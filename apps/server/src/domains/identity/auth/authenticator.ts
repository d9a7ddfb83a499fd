import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { ChangeCache, type Tag } from '../../../db/cache.js';
import type { ChangeFeed } from '../../../db/changes.js';
import type { Db } from '../../../db/client.js';
import { apiTokens, authSessions, users } from '../../../db/schema/index.js';
import type { Authenticated, Principal, UserAuthenticator } from '../../../http/auth.js';
import { safeEqual, sha256 } from '../../../lib/crypto.js';
import { days, minutes } from '../../../lib/time.js';

/** Sessions end after this long without use. */
export const SESSION_IDLE_LIMIT = days(30);
/** A terminal sign-in token must be activated within this time. */
export const PENDING_TOKEN_TTL = minutes(10);
/** last_used_at is written at most this often per credential, keeping reads read-only. */
const TOUCH_INTERVAL = minutes(1);

/** Every request that misses the cache runs one of these; prepared once per database. */
function prepareLookups(db: Db) {
  return {
    apiToken: db
      .select({ token: apiTokens, user: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.identifier, sql.placeholder('identifier')))
      .limit(1)
      .prepare('auth_api_token'),
    session: db
      .select({ session: authSessions, user: users })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(eq(authSessions.keyHash, sql.placeholder('keyHash')))
      .limit(1)
      .prepare('auth_session'),
  };
}

/** A valid credential as read from the database; what may change by itself is checked at each use. */
interface Credential {
  /** The user and principal, the same object for every request it admits. */
  answer: Authenticated;
  /** API tokens: SHA-256 of the secret part (the cache key is the public identifier). */
  secretHash: string | null;
  expiresAt: number | null;
  /** When last_used_at was last written (sessions: or created); sessions end this long idle. */
  lastUsedAt: number;
}

/** How long a credential is answered from memory at most; revocations reach every server at once anyway. */
const CREDENTIAL_TTL = 10_000;

/**
 * Resolves `Authorization` credentials to a user. Credentials are kept in memory briefly, keyed by
 * token identifier or session key hash, and dropped the moment their token, session or user row
 * changes on any server (see ChangeCache), so a revoked token, a logged-out session or a
 * deactivated user stops working everywhere at once. last_used_at is written at most once a
 * minute per credential, after the answer, never awaited.
 */
export class Authenticator implements UserAuthenticator {
  private readonly lookups: ReturnType<typeof prepareLookups>;
  private readonly cache: ChangeCache<Credential>;

  constructor(
    private readonly db: Db,
    changes: ChangeFeed,
  ) {
    this.lookups = prepareLookups(db);
    this.cache = new ChangeCache(changes, { ttlMs: CREDENTIAL_TTL, maxEntries: 10_000 });
  }

  /** Synchronous when the credential is in memory (the common case), else a promise. */
  authenticate(credentials: string): Authenticated | null | Promise<Authenticated | null> {
    const dash = credentials.indexOf('-');
    // An API token is `<identifier>-<secret>`; anything else is a session key from login.
    const key = dash > 0 ? `t:${credentials.slice(0, dash)}` : `s:${sha256(credentials)}`;
    const found = this.cache.get(key);
    if (found) return this.check(found, credentials, dash);
    const mark = this.cache.mark();
    const load = dash > 0 ? this.loadToken(credentials.slice(0, dash)) : this.loadSession(key.slice(2));
    return load.then((loaded) => {
      if (!loaded) return null;
      this.cache.set(key, loaded.credential, loaded.tags, mark);
      return this.check(loaded.credential, credentials, dash);
    });
  }

  /** What may change by itself: the secret presented, expiry, idleness; last_used_at written now and then. */
  private check(found: Credential, credentials: string, dash: number): Authenticated | null {
    if (found.secretHash !== null && !safeEqual(found.secretHash, sha256(credentials.slice(dash + 1))))
      return null;
    const now = Date.now();
    if (found.expiresAt !== null && found.expiresAt <= now) return null;
    const { principal } = found.answer;
    if (principal.kind === 'session' && now - found.lastUsedAt > SESSION_IDLE_LIMIT) return null;
    if (now - found.lastUsedAt > TOUCH_INTERVAL) {
      found.lastUsedAt = now;
      this.touch(principal, new Date(now));
    }
    return found.answer;
  }

  private async loadToken(identifier: string): Promise<{ credential: Credential; tags: Tag[] } | null> {
    const [row] = await this.lookups.apiToken.execute({ identifier });
    if (!row || row.token.revokedAt || !row.user.isActive) return null;
    const { token, user } = row;
    return {
      credential: {
        answer: { user: Object.freeze(user), principal: { kind: 'apiToken', tokenId: token.id } },
        secretHash: token.secretHash,
        expiresAt: token.expiry?.getTime() ?? null,
        lastUsedAt: token.lastUsedAt?.getTime() ?? 0,
      },
      tags: [`api_tokens:${token.id}`, `users:${user.id}`],
    };
  }

  private async loadSession(keyHash: string): Promise<{ credential: Credential; tags: Tag[] } | null> {
    const [row] = await this.lookups.session.execute({ keyHash });
    if (!row?.user.isActive) return null;
    const { session, user } = row;
    return {
      credential: {
        answer: { user: Object.freeze(user), principal: { kind: 'session', sessionId: session.id } },
        secretHash: null,
        expiresAt: null,
        lastUsedAt: (session.lastUsedAt ?? session.created).getTime(),
      },
      tags: [`auth_sessions:${session.id}`, `users:${user.id}`],
    };
  }

  /** Not awaited: the answer does not wait for it, and a lost write only makes last_used older. */
  private touch(principal: Principal, at: Date): void {
    const write =
      principal.kind === 'apiToken'
        ? this.db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, principal.tokenId))
        : principal.kind === 'session'
          ? this.db
              .update(authSessions)
              .set({ lastUsedAt: at })
              .where(eq(authSessions.id, principal.sessionId))
          : undefined;
    write?.catch(() => {});
  }
}

/** Deletes sessions idle past the limit and terminal sign-ins never activated. */
export async function pruneCredentials(db: Db): Promise<void> {
  const now = Date.now();
  await db
    .delete(authSessions)
    .where(
      or(
        lt(authSessions.lastUsedAt, new Date(now - SESSION_IDLE_LIMIT)),
        and(isNull(authSessions.lastUsedAt), lt(authSessions.created, new Date(now - SESSION_IDLE_LIMIT))),
      ),
    );
  await db
    .delete(apiTokens)
    .where(and(isNull(apiTokens.userId), lt(apiTokens.created, new Date(now - days(1)))));
}

export function isPendingTokenUsable(created: Date): boolean {
  return created.getTime() > Date.now() - PENDING_TOKEN_TTL;
}
