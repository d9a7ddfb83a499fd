import { and, asc, count, desc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type Cluster,
  clusterProcesses,
  clusters,
  STATEFUL_OBJECT_TYPES,
  stateHistory,
  type User,
} from '../../db/schema/index.js';
import { badRequest } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { contains } from '../../lib/sql.js';
import { isoTime } from '../../lib/time.js';
import type { ResolvedScope, WorkspaceAccess } from '../identity/index.js';
import { workspaceNamesOf } from '../identity/index.js';
import { presentSummaries } from './present.js';
import type { listClustersQuery, paginateQuery } from './schemas.js';
import { PROCESS_UP } from './states.js';

/** `GET clusters/account/{ws}/`: a bare array, newest first. */
export async function listClusters(
  db: Db,
  user: User,
  access: WorkspaceAccess,
  query: z.infer<typeof listClustersQuery>,
) {
  const rows = await db
    .select()
    .from(clusters)
    .where(
      and(
        eq(clusters.workspaceId, access.workspace.id),
        query.just_mine ? eq(clusters.creatorId, user.id) : undefined,
        query.name !== undefined ? eq(clusters.name, query.name) : undefined,
      ),
    )
    .orderBy(desc(clusters.created), desc(clusters.id))
    .limit(query.limit)
    .offset(query.offset);
  return presentSummaries(db, rows, new Map([[access.workspace.id, access.workspace]]));
}

const ORDER_COLUMNS = {
  created: clusters.created,
  updated: clusters.updated,
  name: clusters.name,
  state: clusters.state,
  id: clusters.id,
} as const;

/**
 * Notebook clusters are the ones tagged as such by whoever started them: `cumulus-cluster-type:
 * notebook` (Cumulus's tag), or `coiled-cluster-type: notebook` as clients of the established API
 * tag them (the way batch clusters carry `...-cluster-type: batch`).
 */
export const NOTEBOOK_TAGS = [
  { 'cumulus-cluster-type': 'notebook' },
  { 'coiled-cluster-type': 'notebook' },
] as const;
const isNotebook = sql`(${sql.join(
  NOTEBOOK_TAGS.map((tag) => sql`${clusters.tags} @> ${JSON.stringify(tag)}::jsonb`),
  sql` or `,
)})`;

/** Clusters carrying each tag (`[key, undefined]`: any value), as `tagFilter` parses them. */
export const hasTags = (tags: Array<[string, string | undefined]>): SQL[] =>
  tags.map(([key, value]) =>
    value === undefined
      ? sql`${clusters.tags} ? ${key}`
      : sql`${clusters.tags} @> ${JSON.stringify({ [key]: value })}::jsonb`,
  );

/**
 * `GET clusters/paginate` (and `paginate-notebook`): every cluster the caller may
 * see, filtered and ordered, `{items, count}`.
 */
export async function paginateClusters(
  db: Db,
  user: User,
  scope: ResolvedScope,
  query: z.infer<typeof paginateQuery>,
  options: { notebooks?: boolean } = {},
) {
  const where: Array<SQL | undefined> = [
    options.notebooks ? isNotebook : undefined,
    scope.workspaceIds === null ? undefined : inArray(clusters.workspaceId, scope.workspaceIds),
    scope.userId === null ? undefined : eq(clusters.creatorId, scope.userId),
    query.just_mine ? eq(clusters.creatorId, user.id) : undefined,
    query.name ? contains(clusters.name, query.name) : undefined,
    query.state.length > 0 ? inArray(clusters.state, query.state) : undefined,
    query.pause_on_exit === undefined ? undefined : eq(clusters.pauseOnExit, query.pause_on_exit),
    ...hasTags(query.tags),
  ];
  if (scope.workspaceIds?.length === 0) return { items: [], count: 0 };
  const filter = and(...where);
  const column = ORDER_COLUMNS[query.order_by];
  const direction = query.order_by_direction === 'asc' ? asc : desc;
  const order = [direction(column), direction(clusters.id)];
  // The page's ids first (an index-only walk past the offset), then only those rows.
  const page = db
    .select({ id: clusters.id })
    .from(clusters)
    .where(filter)
    .orderBy(...order);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(clusters)
      .where(inArray(clusters.id, page.limit(query.limit).offset(query.offset)))
      .orderBy(...order),
    query.total ? db.select({ n: count() }).from(clusters).where(filter) : Promise.resolve(null),
  ]);
  const names = await workspaceNamesOf(
    db,
    rows.map((r) => r.workspaceId),
  );
  const items = await presentSummaries(db, rows, names);
  return { items, count: total?.[0]?.n ?? -1 };
}

/** `GET .../states?start_time=`: state records newer than start_time, by object type. */
export async function clusterStates(db: Db, cluster: Cluster, startTime: string | undefined) {
  let since: Date | undefined;
  if (startTime) {
    since = new Date(startTime.replace(' ', '+'));
    if (Number.isNaN(since.getTime())) throw badRequest(`"${startTime}" is not a valid start_time.`);
  }
  const rows = await db
    .select()
    .from(stateHistory)
    .where(and(eq(stateHistory.clusterId, cluster.id), since ? gt(stateHistory.created, since) : undefined))
    .orderBy(asc(stateHistory.created), asc(stateHistory.id))
    .limit(5000);
  const map: Record<string, unknown[]> = Object.fromEntries(STATEFUL_OBJECT_TYPES.map((t) => [t, []]));
  for (const r of rows) {
    map[r.objectType]!.push({
      id: r.id,
      updated: isoTime(r.created),
      state: r.state,
      reason: r.reason,
      stateful_object: { id: r.objectId, name: r.objectName },
    });
  }
  return map as Record<string, never[]>;
}

/** `GET .../size`: desired and actual workers, and the cores the cluster counts for. */
export async function clusterSize(db: Db, cluster: Cluster) {
  const rows = await db
    .select({ state: clusterProcesses.state, n: sql<number>`count(*)::int` })
    .from(clusterProcesses)
    .where(and(eq(clusterProcesses.clusterId, cluster.id), eq(clusterProcesses.role, 'worker')))
    .groupBy(clusterProcesses.state);
  const by = new Map(rows.map((r) => [r.state, r.n]));
  const active = PROCESS_UP.reduce((n, s) => n + (by.get(s) ?? 0), 0);
  return {
    desired_workers: cluster.desiredWorkers,
    workers: active,
    ready_workers: by.get('started') ?? 0,
    cores: 1 + cluster.desiredWorkers * cluster.workerCores,
  };
}
