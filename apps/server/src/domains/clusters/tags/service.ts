import { and, desc, eq, exists, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusterProcesses, clusters } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { escapeLike, rowsOf } from '../../../lib/sql.js';
import { type ResolvedScope, workspaceView } from '../../identity/index.js';
import { clusterAlerts } from '../logs/service.js';
import { hasTags } from '../queries.js';
import type { alertContentsQuery, labelsQuery, valuesQuery } from './schemas.js';

/** Tags Cumulus and clients set themselves (cluster type, batch...), not a user's own labels. */
export const SYSTEM_TAG = /^(cumulus|coiled)-/;
const SYSTEM_TAG_SQL = '^(cumulus|coiled)-';

/** Clusters in the caller's resolved scope; null when the scope holds no workspace at all. */
function inScope(scope: ResolvedScope): SQL | null {
  if (scope.workspaceIds?.length === 0) return null;
  return (
    and(
      scope.workspaceIds === null ? undefined : inArray(clusters.workspaceId, scope.workspaceIds),
      scope.userId === null ? undefined : eq(clusters.creatorId, scope.userId),
    ) ?? sql`true`
  );
}

const empty = { items: [], count: 0 };

/** `GET tags/labels`: the tag keys of the clusters in scope, with how many clusters carry each. */
export async function tagLabels(db: Db, scope: ResolvedScope, query: z.infer<typeof labelsQuery>) {
  const inside = inScope(scope);
  if (!inside) return empty;
  const where = sql`${inside}
    ${query.system_tags ? sql`` : sql`and t.key !~ ${SYSTEM_TAG_SQL}`}
    ${query.starts_with ? sql`and t.key ilike ${`${escapeLike(query.starts_with)}%`}` : sql``}`;
  const [rows, total] = await Promise.all([
    db.execute(sql`
      select t.key, count(*)::int as clusters
      from ${clusters} cross join lateral jsonb_object_keys(${clusters.tags}) as t(key)
      where ${where}
      group by t.key
      order by t.key
      limit ${query.limit} offset ${query.offset}`),
    db.execute(sql`
      select count(distinct t.key)::int as n
      from ${clusters} cross join lateral jsonb_object_keys(${clusters.tags}) as t(key)
      where ${where}`),
  ]);
  return {
    items: rowsOf<{ key: string; clusters: number }>(rows).map((r) => ({
      key: r.key,
      system: SYSTEM_TAG.test(r.key),
      cluster_count: r.clusters,
    })),
    count: rowsOf<{ n: number }>(total)[0]?.n ?? 0,
  };
}

/** `GET tags/values`: the key/value pairs of the clusters in scope (of one key if asked). */
export async function tagValues(db: Db, scope: ResolvedScope, query: z.infer<typeof valuesQuery>) {
  const inside = inScope(scope);
  if (!inside) return empty;
  const where = sql`${inside}
    ${query.key !== undefined ? sql`and t.key = ${query.key}` : sql``}
    ${query.starts_with ? sql`and t.value ilike ${`${escapeLike(query.starts_with)}%`}` : sql``}`;
  const [rows, total] = await Promise.all([
    db.execute(sql`
      select t.key, t.value, count(*)::int as clusters
      from ${clusters} cross join lateral jsonb_each_text(${clusters.tags}) as t(key, value)
      where ${where}
      group by t.key, t.value
      order by t.key, t.value
      limit ${query.limit} offset ${query.offset}`),
    db.execute(sql`
      select count(*)::int as n from (
        select 1 from ${clusters} cross join lateral jsonb_each_text(${clusters.tags}) as t(key, value)
        where ${where} group by t.key, t.value) pairs`),
  ]);
  return {
    items: rowsOf<{ key: string; value: string; clusters: number }>(rows).map((r) => ({
      key: r.key,
      value: r.value,
      system: SYSTEM_TAG.test(r.key),
      cluster_count: r.clusters,
    })),
    count: rowsOf<{ n: number }>(total)[0]?.n ?? 0,
  };
}

/** How many clusters alert-contents looks at: the most recently changed ones with something to say. */
const ALERTING_CLUSTERS = 50;

/**
 * `GET tags/alert-contents`: the alerts of the clusters in scope that carry the tags (what went
 * wrong, what Cumulus is retrying), most severe first. Messages are markdown linking to the cluster.
 */
export async function tagAlertContents(
  db: Db,
  scope: ResolvedScope,
  query: z.infer<typeof alertContentsQuery>,
) {
  const inside = inScope(scope);
  if (!inside) return empty;
  const alerting = or(
    eq(clusters.state, 'error'),
    isNotNull(clusters.reconcileError),
    exists(
      db
        .select({ one: sql`1` })
        .from(clusterProcesses)
        .where(and(eq(clusterProcesses.clusterId, clusters.id), eq(clusterProcesses.state, 'error'))),
    ),
  );
  const rows = await db
    .select({ cluster: clusters, account: workspaceView.slug })
    .from(clusters)
    .innerJoin(workspaceView, eq(workspaceView.id, clusters.workspaceId))
    .where(and(inside, alerting, ...hasTags(query.tags)))
    .orderBy(desc(clusters.updated), desc(clusters.id))
    .limit(ALERTING_CLUSTERS);
  const alerts = [];
  for (const { cluster, account } of rows) {
    const link = `[Open ${cluster.name}](/clusters/${cluster.id}?account=${encodeURIComponent(account)})`;
    for (const alert of await clusterAlerts(db, cluster)) {
      if (alert.level < query.min_level) continue;
      alerts.push({
        ...alert,
        message: `${alert.message}\n\n${link}`,
        cluster_id: cluster.id,
        cluster_name: cluster.name,
        account,
        tags: cluster.tags,
      });
    }
  }
  // Most severe first; otherwise the most recently changed cluster first, each in its own order.
  alerts.sort((a, b) => b.level - a.level);
  return { items: alerts.slice(query.offset, query.offset + query.limit), count: alerts.length };
}
