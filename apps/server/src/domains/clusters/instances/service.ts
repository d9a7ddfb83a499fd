import { and, count as countAll, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusters, instances } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { countRows, type OffsetQuery, paginate } from '../../../http/pagination.js';
import { presentInstance } from '../present.js';

/** A workspace's instances, newest first, `{items, count}`. */
export async function listInstances(db: Db, workspaceId: number, page: OffsetQuery) {
  const where = eq(clusters.workspaceId, workspaceId);
  const { rows, count } = await paginate(
    page,
    db
      .select({ instance: instances })
      .from(instances)
      .innerJoin(clusters, eq(clusters.id, instances.clusterId))
      .where(where)
      .orderBy(desc(instances.id)),
    countRows(
      db
        .select({ n: countAll() })
        .from(instances)
        .innerJoin(clusters, eq(clusters.id, instances.clusterId))
        .where(where),
    ),
  );
  return { items: rows.map((r) => presentInstance(r.instance)), count };
}

/** One instance of the workspace, by id or by name (names repeat across clusters: the newest wins). */
export async function findInstance(db: Db, workspaceId: number, key: { id: number } | { name: string }) {
  const [row] = await db
    .select({ instance: instances })
    .from(instances)
    .innerJoin(clusters, eq(clusters.id, instances.clusterId))
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        'id' in key ? eq(instances.id, key.id) : eq(instances.name, key.name),
      ),
    )
    .orderBy(desc(instances.id))
    .limit(1);
  if (!row) throw notFound('Instance not found.');
  return row.instance;
}
