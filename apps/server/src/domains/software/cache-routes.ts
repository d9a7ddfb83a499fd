import { normaliseProject } from '../../compute/builder.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { permissionDenied } from '../../http/errors.js';
import { itemsOf, offsetQuery } from '../../http/pagination.js';
import { z } from '../../http/zod.js';

const tags = ['software'];
const user = { auth: 'user' } as const;

const cachedPackage = z.object({
  name: z.string(),
  version: z.string(),
  source: z.enum(['pip', 'conda']),
  channel_url: z.string().nullable(),
  platform: z.string(),
  python_version: z.string(),
});
type CachedPackage = z.infer<typeof cachedPackage>;

const cacheQuery = offsetQuery.extend({
  name: z.string().max(200).optional(),
  version: z.string().max(100).optional(),
  source: z.enum(['pip', 'conda']).optional(),
  channel_url: z.string().max(1000).optional(),
  platform: z.string().max(100).optional(),
  python_version: z.string().max(20).optional(),
});

/**
 * The package cache: what every environment built here starts with (the packages of the
 * interpreter environments are made from, read once and kept), which approximate-packages
 * compares a client's scan against. After packages are installed into that interpreter,
 * `invalidate` makes the next use read it again and `flush` (staff) reads it again at once.
 */
export function registerPackageCacheRoutes(app: App, deps: Deps): void {
  const builder = () => deps.backends.standard().builder;

  async function cached(): Promise<CachedPackage[]> {
    const found = builder();
    if (!found) return [];
    const about = await found.interpreter();
    const platform = `linux-${about.architecture}`;
    return [...about.packages]
      .map(([name, version]) => ({
        name,
        version,
        source: 'pip' as const,
        channel_url: null,
        platform,
        python_version: about.version,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  app.get(
    '/api/v2/packages/cache',
    {
      config: user,
      schema: {
        tags,
        description:
          'The packages every environment here has already (the build interpreter), filtered and paged.',
        querystring: cacheQuery,
        response: { 200: itemsOf(cachedPackage) },
      },
    },
    async (request) => {
      const { limit, offset, name, version, source, channel_url, platform, python_version } = request.query;
      const wanted = name && normaliseProject(name);
      const matches = (await cached()).filter(
        (p) =>
          (!wanted || p.name.includes(wanted)) &&
          (!version || p.version === version) &&
          (!source || p.source === source) &&
          (channel_url === undefined || p.channel_url === channel_url) &&
          (!platform || p.platform === platform) &&
          (!python_version || p.python_version.startsWith(python_version)),
      );
      return { items: matches.slice(offset, offset + limit), count: matches.length };
    },
  );

  app.get(
    '/api/v2/packages/cache/invalidate',
    {
      config: user,
      schema: {
        tags,
        description: 'Forgets the cached packages: the next use reads the interpreter again.',
        response: { 200: z.object({ invalidated: z.boolean() }) },
      },
    },
    async () => {
      builder()?.forget();
      return { invalidated: true };
    },
  );

  app.get(
    '/api/v2/packages/cache/flush',
    {
      config: user,
      schema: {
        tags,
        description: 'Staff: reads the interpreter again now and answers how many packages it has.',
        response: { 200: z.object({ flushed: z.boolean(), count: z.number().int() }) },
      },
    },
    async (request) => {
      if (!currentUser(request).isStaff) throw permissionDenied();
      builder()?.forget();
      return { flushed: true, count: (await cached()).length };
    },
  );
}
