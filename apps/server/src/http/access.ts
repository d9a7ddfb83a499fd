import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';

/**
 * Access is resolved once per request, before the handler runs: a route says what it needs in its
 * config (`config: { auth: 'user', workspace: 'admin' }`), and the one pre-handler installed here
 * hands each need to the resolver that answers it; the resolver refuses (404, 403) or puts what it
 * found on `request.access`. Handlers and services take that access and never look it up again.
 *
 * The kernel knows no domain, so the needs and what they resolve to are declared by the domains
 * that answer them (declaration merging on `AccessNeeds` and `RequestAccess`), and app.ts hands
 * their resolvers in.
 */
// biome-ignore lint/suspicious/noEmptyInterface: domains add the config keys they resolve.
export interface AccessNeeds {}

// biome-ignore lint/suspicious/noEmptyInterface: domains add what their resolvers put here.
export interface RequestAccess {}

declare module 'fastify' {
  interface FastifyContextConfig extends AccessNeeds {}
  interface FastifyRequest {
    /** What the route's access needs resolved to (empty for routes that declare none). */
    access: RequestAccess;
  }
}

export interface AccessResolver<K extends keyof AccessNeeds = keyof AccessNeeds> {
  /** The route config key it answers. */
  key: K;
  /** Refuses (throws an ApiError) or puts what it resolved on `request.access`. */
  resolve(request: FastifyRequest, need: NonNullable<AccessNeeds[K]>): Promise<void>;
}

/** A resolver for a config key (keeps the need's type tied to the key). */
export function accessResolver<K extends keyof AccessNeeds>(
  key: K,
  resolve: AccessResolver<K>['resolve'],
): AccessResolver {
  return { key, resolve } as unknown as AccessResolver;
}

const installed = new WeakMap<FastifyInstance, AccessResolver[]>();

/**
 * The same resolution for an entry point that is not a route (a WebSocket upgrade): the needs it
 * declares, answered once by the resolvers the pre-handler uses, for what the upgrade parsed (its
 * caller as `user`, its path's parameters as `params`). Refuses by throwing, as a route would.
 */
export async function resolveAccess(
  app: FastifyInstance,
  needs: AccessNeeds,
  upgrade: { user: NonNullable<FastifyRequest['user']>; params: Record<string, unknown>; url: string },
): Promise<RequestAccess> {
  const resolvers = installed.get(app);
  if (!resolvers) throw new Error('access resolvers are not installed');
  const request = {
    user: upgrade.user,
    params: upgrade.params,
    query: {},
    body: undefined,
    routeOptions: { url: upgrade.url },
    access: {},
  } as unknown as FastifyRequest;
  for (const resolver of resolvers) {
    const need = (needs as Record<string, unknown>)[resolver.key as string];
    if (need !== undefined) await resolver.resolve(request, need as never);
  }
  return request.access;
}

/**
 * Installs the one pre-handler. Only routes that declare a need get it (first among their
 * pre-handlers), so other routes pay nothing; needs are resolved in the order the resolvers are given.
 */
export function installAccess(app: FastifyInstance, resolvers: AccessResolver[]): void {
  installed.set(app, resolvers);
  app.decorateRequest('access', null as unknown as RequestAccess);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as Record<string, unknown>;
    const needs = resolvers.filter((r) => config[r.key as string] !== undefined);
    if (needs.length === 0) return;
    const resolveAccess: preHandlerHookHandler = async (request) => {
      request.access = {};
      for (const resolver of needs) await resolver.resolve(request, config[resolver.key as string] as never);
    };
    const existing = route.preHandler;
    route.preHandler = [resolveAccess, ...(existing ? [existing].flat() : [])];
  });
}
