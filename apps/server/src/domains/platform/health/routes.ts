import { type Db, pingDatabase } from '../../../db/client.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { ApiError } from '../../../http/errors.js';
import { offsetQuery } from '../../../http/pagination.js';
import { z } from '../../../http/zod.js';
import { VERSION } from '../../../version.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'unavailable']),
  version: z.string(),
});

/** How old a database ping health may answer with; load balancers poll often, the database need not. */
const PING_MAX_AGE_MS = 1000;

/**
 * The last ping if it started at most PING_MAX_AGE_MS ago (synchronously), else a new one; callers
 * meanwhile share it.
 */
function recentPing(db: Db): () => boolean | Promise<boolean> {
  let last: { ok: boolean; at: number } | undefined;
  let pending: Promise<boolean> | undefined;
  return () => {
    if (last && performance.now() - last.at <= PING_MAX_AGE_MS) return last.ok;
    if (!pending) {
      const at = performance.now();
      pending = pingDatabase(db).then((ok) => {
        last = { ok, at };
        pending = undefined;
        return ok;
      });
    }
    return pending;
  };
}

/** The two answers, frozen: the serializer writes each once (http/serializer.ts). */
const HEALTHY = Object.freeze({ status: 'ok', db: 'ok', version: VERSION } as const);
const DEGRADED = Object.freeze({ status: 'degraded', db: 'unavailable', version: VERSION } as const);

export function registerHealthRoutes(app: App, { db }: Deps): void {
  const ping = recentPing(db);
  for (const url of ['/api/health', '/api/v1/health']) {
    app.get(
      url,
      {
        // Load balancers poll this: no log line below warn, no CSRF cookie.
        config: { auth: 'none', quietLog: true, csrf: false },
        schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } },
      },
      // Not async: a recent ping answers without a promise.
      (_request, reply) => {
        const answer = (ok: boolean) => {
          reply.code(ok ? 200 : 503).send(ok ? HEALTHY : DEGRADED);
        };
        const ok = ping();
        if (typeof ok !== 'boolean') return ok.then(answer);
        answer(ok);
      },
    );
  }

  // Diagnostics clients use to check their error handling and paging against a live server.
  const tags = ['test'];
  app.get(
    '/api/v2/test/pagination/',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        querystring: offsetQuery,
        response: { 200: z.object({ items: z.array(z.number()), count: z.number() }) },
      },
    },
    async (request) => {
      const count = 1000;
      const start = Math.min(request.query.offset, count);
      const end = Math.min(start + request.query.limit, count);
      return { items: Array.from({ length: end - start }, (_, i) => start + i), count };
    },
  );
  const whoami = z.object({ detail: z.string(), username: z.string() });
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/api/v2/test/authentication-required/',
      config: { auth: 'user' },
      schema: { tags, response: { 200: whoami } },
      handler: async (request) => ({ detail: 'ok', username: currentUser(request).username }),
    });
  }
  app.get('/api/v2/test/raise-exception/', { config: { auth: 'none' }, schema: { tags } }, async () => {
    throw new Error('Deliberate failure from /api/v2/test/raise-exception/');
  });
  app.get(
    '/api/v2/test/raise-cumulus-exception/',
    { config: { auth: 'none' }, schema: { tags } },
    async () => {
      throw new ApiError(400, { detail: 'A deliberate Cumulus exception.', code: 'CUMULUS_EXCEPTION' });
    },
  );
}
