import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Backends } from '../../compute/backend.js';
import type { Db } from '../../db/client.js';
import { softwareBuilds } from '../../db/schema/index.js';
import { isOutside } from './outside-archives.js';

/**
 * The latest build of the latest spec of every alias, per architecture (vm_aws builds one per
 * architecture its clusters run): what each alias uses now.
 */
const latestOfAliases = sql`select distinct on (s.alias_id, b.architecture) b.id from software_specs s
    join software_builds b on b.spec_id = s.id and b.state = 'built'
    order by s.alias_id, b.architecture, s.id desc, b.id desc`;

/** The latest built build per architecture of the specs of these builds: what a cluster of two architectures also runs. */
const otherArchitectures = (ids: number[]) => sql`select distinct on (b.spec_id, b.architecture) b.id
    from software_builds b where b.state = 'built' and b.spec_id in
      (select spec_id from software_builds where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}))
    order by b.spec_id, b.architecture, b.id desc`;

/**
 * Garbage collection: built environments no alias and no cluster uses any more and older than the retention lose
 * their files but keep lockfile and logs ("archived"); a later build of them restores them from
 * the lockfile. Environment directories no build knows (their alias was deleted) go too.
 * Answers how many environments it freed.
 */
export async function collectEnvironments(
  db: Db,
  backends: Backends,
  options: {
    retentionMs: number;
    dataDir: string;
    log: FastifyBaseLogger;
    /** The builds clusters that have not ended run on (given by server.ts: clusters sit above software). */
    buildsOfClusters: () => Promise<number[]>;
  },
): Promise<number> {
  const builder = backends.standard().builder;
  if (!builder) return 0;
  const cutoff = new Date(Date.now() - options.retentionMs);
  const ids = async (query: ReturnType<typeof sql>) =>
    ((await db.execute<{ id: number }>(query)) as unknown as { rows: { id: number }[] }).rows.map((r) =>
      Number(r.id),
    );
  const ofClusters = await options.buildsOfClusters();
  const usedIds = [
    ...new Set([
      ...(await ids(latestOfAliases)),
      ...ofClusters,
      ...(ofClusters.length ? await ids(otherArchitectures(ofClusters)) : []),
    ]),
  ];
  const usedLocations = new Set(
    usedIds.length === 0
      ? []
      : (
          await db
            .select({ location: softwareBuilds.location })
            .from(softwareBuilds)
            .where(inArray(softwareBuilds.id, usedIds))
        ).map((r) => r.location),
  );
  const stale = await db
    .select({
      id: softwareBuilds.id,
      location: softwareBuilds.location,
      workspaceId: softwareBuilds.workspaceId,
    })
    .from(softwareBuilds)
    .where(
      and(
        eq(softwareBuilds.state, 'built'),
        isNull(softwareBuilds.archivedAt),
        isNotNull(softwareBuilds.location),
        lt(softwareBuilds.ended, cutoff),
      ),
    );
  const freed = new Set<string>();
  for (const build of stale) {
    if (usedIds.includes(build.id) || !build.location) continue;
    if (!usedLocations.has(build.location) && !freed.has(build.location)) {
      if (isOutside(build.location)) {
        // Deleted by the store of the workspace's backend (vm_gcp's bucket).
        const store = (await backends.forWorkspace(build.workspaceId)).builder?.archives;
        if (store?.owns(build.location)) await store.remove(build.workspaceId, build.location);
        else
          options.log.warn(
            { location: build.location },
            'software environment archive left in its bucket: the workspace is no longer on GCP',
          );
      } else await builder.remove(build.location);
      freed.add(build.location);
      options.log.info({ location: build.location }, 'software environment archived (unused)');
    }
    await db
      .update(softwareBuilds)
      .set({ archivedAt: new Date(), location: null, sizeBytes: 0 })
      .where(eq(softwareBuilds.id, build.id));
  }
  // Directories of deleted aliases' builds: no row points at them any more.
  const root = path.join(options.dataDir, 'environments');
  const known = new Set(
    (await db.selectDistinct({ location: softwareBuilds.location }).from(softwareBuilds)).map(
      (r) => r.location,
    ),
  );
  for (const name of await readdir(root).catch(() => [] as string[])) {
    // Build machines' archives (remote builds) go with their builds above, not as a directory.
    if (name.startsWith('.') || name === 'archives') continue;
    const location = path.join(root, name);
    if (!known.has(location)) {
      await builder.remove(location);
      freed.add(location);
    }
  }
  return freed.size;
}
