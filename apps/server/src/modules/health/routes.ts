import { pingDatabase } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { ApiError } from '../../http/errors.js';
import { offsetQuery } from '../../http/pagination.js';
import { z } from '../../http/zod.js';
import { VERSION } from '../../version.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'unavailable']),
  version: z.string(),
});

export function registerHealthRoutes(app: App, { db }: Deps): void {
  for (const url of ['/api/health', '/api/v1/health']) {
    app.get(
      url,
      {
        config: { auth: 'none' },
        schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } },
      },
      async (_request, reply) => {
        const ok = await pingDatabase(db);
        return reply
          .code(ok ? 200 : 503)
          .send({ status: ok ? 'ok' : 'degraded', db: ok ? 'ok' : 'unavailable', version: VERSION });
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
