import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { apiTokens, authSessions, type User, users } from '../db/schema/index.js';
import { safeEqual, sha256 } from '../lib/crypto.js';
import { days, minutes } from '../lib/time.js';
import { invalidToken, notAuthenticated, permissionDenied } from './errors.js';

/**
 * How a route authenticates. Every route must declare one (checked when routes are added), so a
 * new route cannot be public by accident.
 * - none: anyone; optional: a user if credentials are sent; user / staff: a signed-in (staff) user;
 * - cluster: an instance of a cluster with its bearer token (resolved by the cluster-facing module).
 */
export type AuthMode = 'none' | 'optional' | 'user' | 'staff' | 'cluster';

export type Principal =
  | { kind: 'session'; sessionId: number }
  | { kind: 'apiToken'; tokenId: number }
  | { kind: 'cluster'; clusterId: number; instanceId: number | null };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** False for calls that browsers never make and that carry their own credentials (webhooks). */
    csrf?: boolean;
  }
  interface FastifyRequest {
    user: User | null;
    principal: Principal | null;
  }
}

/** Sessions end after this long without use. */
export const SESSION_IDLE_LIMIT = days(30);
/** A terminal sign-in token must be activated within this time. */
export const PENDING_TOKEN_TTL = minutes(10);
/** last_used_at is written at most this often per credential, keeping reads read-only. */
const TOUCH_INTERVAL = minutes(1);

export type ClusterTokenResolver = (db: Db, token: string) => Promise<Principal | null>;

interface AuthOptions {
  db: Db;
  resolveClusterToken?: ClusterTokenResolver;
}

export function installAuth(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('user', null);
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const isApi = route.url.startsWith('/api') || route.url.startsWith('/users/');
    if (isApi && route.config?.auth === undefined) {
      throw new Error(`Route ${route.method} ${route.url} declares no auth mode (config.auth)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    if (!mode || mode === 'none') return;
    const credentials = parseAuthorization(request);
    if (mode === 'cluster') {
      if (!credentials) throw notAuthenticated();
      const principal = options.resolveClusterToken
        ? await options.resolveClusterToken(options.db, credentials)
        : null;
      if (!principal) throw invalidToken();
      request.principal = principal;
      return;
    }
    if (!credentials) {
      if (mode === 'optional') return;
      throw notAuthenticated();
    }
    const found = await authenticateUser(options.db, credentials);
    if (!found) throw invalidToken();
    request.user = found.user;
    request.principal = found.principal;
    if (mode === 'staff' && !found.user.isStaff) throw permissionDenied();
  });
}

/** `Token <key>`, `ApiToken <token>` or `Bearer <token>`; the prefix does not decide the kind. */
function parseAuthorization(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^(?:Token|ApiToken|Bearer)\s+(\S{1,512})\s*$/i.exec(header);
  if (!match?.[1]) throw invalidToken();
  return match[1];
}

/** Every request runs these, so they are prepared once per database (drizzle builds no SQL per call). */
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
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookups>>();

export async function authenticateUser(
  db: Db,
  credentials: string,
): Promise<{ user: User; principal: Principal } | null> {
  let prepared = lookups.get(db);
  if (!prepared) {
    prepared = prepareLookups(db);
    lookups.set(db, prepared);
  }
  const now = Date.now();
  const dash = credentials.indexOf('-');
  if (dash > 0) {
    // An API token: `<identifier>-<secret>`.
    const [row] = await prepared.apiToken.execute({ identifier: credentials.slice(0, dash) });
    if (!row || !safeEqual(row.token.secretHash, sha256(credentials.slice(dash + 1)))) return null;
    const { token, user } = row;
    if (token.revokedAt || (token.expiry && token.expiry.getTime() <= now) || !user.isActive) return null;
    if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > TOUCH_INTERVAL) {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: new Date(now) })
        .where(eq(apiTokens.id, token.id));
    }
    return { user, principal: { kind: 'apiToken', tokenId: token.id } };
  }
  // A session key from login.
  const [row] = await prepared.session.execute({ keyHash: sha256(credentials) });
  if (!row?.user.isActive) return null;
  const lastUsed = (row.session.lastUsedAt ?? row.session.created).getTime();
  if (now - lastUsed > SESSION_IDLE_LIMIT) return null;
  if (now - lastUsed > TOUCH_INTERVAL) {
    await db
      .update(authSessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(authSessions.id, row.session.id));
  }
  return { user: row.user, principal: { kind: 'session', sessionId: row.session.id } };
}

/** The signed-in user of a route whose auth mode guarantees one. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw notAuthenticated();
  return request.user;
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
