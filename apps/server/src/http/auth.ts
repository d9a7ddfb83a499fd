import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import type { User } from '../db/schema/index.js';
import { type ApiError, invalidToken, notAuthenticated, permissionDenied } from './errors.js';

/**
 * How a route authenticates. Every route must declare one (checked when routes are added), so a
 * new route cannot be public by accident.
 * - none: anyone; optional: a user if credentials are sent; user / staff: a signed-in (staff) user;
 * - cluster: an instance of a cluster with its bearer token (resolved by the cluster-facing module);
 * - software: the machine running a software build, with that build's bearer token (software module);
 * - user-or-cluster: a cluster's token, else a user's credentials (calls both clients and instances make).
 */
export type AuthMode = 'none' | 'optional' | 'user' | 'staff' | 'cluster' | 'software' | 'user-or-cluster';

export type Principal =
  | { kind: 'session'; sessionId: number }
  | { kind: 'apiToken'; tokenId: number }
  | { kind: 'cluster'; clusterId: number; instanceId: number | null }
  | { kind: 'build'; buildId: number };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /**
     * False for calls that browsers never make (cluster agents, webhooks, health checks): no CSRF
     * cookie is planted and none is asked for.
     */
    csrf?: boolean;
    /** Also takes HTTP Basic credentials, the password being an API token (what pip sends to an index). */
    basicAuth?: boolean;
  }
  interface FastifyRequest {
    user: User | null;
    principal: Principal | null;
  }
}

export interface Authenticated {
  user: User;
  principal: Principal;
}

/** Resolves a machine's bearer token (a cluster's, a build's) to who calls, or null. */
export type TokenResolver = (db: Db, token: string) => Promise<Principal | null>;
export type ClusterTokenResolver = TokenResolver;

/** Resolves a user's credentials (a session key from login, an API token) to who calls, or null. */
export interface UserAuthenticator {
  /** Synchronous when the answer is at hand (the common case), else a promise. */
  authenticate(credentials: string): Authenticated | null | Promise<Authenticated | null>;
}

interface AuthOptions {
  db: Db;
  /** Where machines' tokens are looked up (instances' calls have connections of their own). */
  machineDb?: Db;
  /** Users' credentials (identity's Authenticator); without one, only machines' tokens are taken. */
  authenticator?: UserAuthenticator;
  resolveClusterToken?: TokenResolver;
  resolveSoftwareToken?: TokenResolver;
}

export function installAuth(app: FastifyInstance, options: AuthOptions): void {
  const authenticator: UserAuthenticator = options.authenticator ?? { authenticate: () => null };
  app.decorateRequest('user', null);
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    const isApi = route.url.startsWith('/api') || route.url.startsWith('/users/');
    if (isApi && route.config?.auth === undefined) {
      throw new Error(`Route ${route.method} ${route.url} declares no auth mode (config.auth)`);
    }
  });

  // A plain hook that finishes at once when the credential is in memory (most requests): no
  // promise is made for them.
  app.addHook('onRequest', (request, _reply, done) => {
    const mode = request.routeOptions.config?.auth;
    if (!mode || mode === 'none') return done();
    let credentials: string | null;
    try {
      credentials = parseAuthorization(request);
    } catch (err) {
      return done(err as Error);
    }
    if (mode === 'cluster' || mode === 'software') {
      if (!credentials) return done(notAuthenticated());
      const resolve = mode === 'cluster' ? options.resolveClusterToken : options.resolveSoftwareToken;
      if (!resolve) return done(invalidToken());
      resolve(options.machineDb ?? options.db, credentials).then((principal) => {
        if (!principal) return done(invalidToken());
        request.principal = principal;
        done();
      }, done);
      return;
    }
    if (!credentials) return done(mode === 'optional' ? undefined : notAuthenticated());
    if (mode === 'user-or-cluster' && options.resolveClusterToken) {
      options.resolveClusterToken(options.db, credentials).then(async (principal) => {
        if (principal) {
          request.principal = principal;
          return done();
        }
        done(admit(request, mode, await authenticator.authenticate(credentials)));
      }, done);
      return;
    }
    const found = authenticator.authenticate(credentials);
    if (found instanceof Promise) found.then((f) => done(admit(request, mode, f)), done);
    else done(admit(request, mode, found));
  });
}

/** Sets the request's user from what its credentials resolved to; the refusal, if any. */
function admit(request: FastifyRequest, mode: AuthMode, found: Authenticated | null): ApiError | undefined {
  if (!found) return invalidToken();
  request.user = found.user;
  request.principal = found.principal;
  if (mode === 'staff' && !found.user.isStaff) return permissionDenied();
  return undefined;
}

/** `Token <key>`, `ApiToken <token>` or `Bearer <token>`; the prefix does not decide the kind. */
function parseAuthorization(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  if (request.routeOptions.config?.basicAuth && /^Basic\s/i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    if (!decoded.includes(':') || !password || password.length > 512) throw invalidToken();
    return password;
  }
  const match = /^(?:Token|ApiToken|Bearer)\s+(\S{1,512})\s*$/i.exec(header);
  if (!match?.[1]) throw invalidToken();
  return match[1];
}

/** The signed-in user of a route whose auth mode guarantees one. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw notAuthenticated();
  return request.user;
}
