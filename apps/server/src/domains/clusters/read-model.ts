import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  type Cluster,
  type ClusterProcess,
  clusterEvents,
  clusterProcesses,
  clusters,
  type Instance,
  instanceLogs,
  instanceSpecs,
  instances,
  stateHistory,
} from '../../db/schema/index.js';
import { workspaceView } from '../identity/index.js';
import { CLUSTER_UP, sqlLiveCluster } from './states.js';

// How other domains read the clusters domain's tables: these views (to join and filter on, inside
// their own queries) and the functions below. They never name its tables themselves.

const qb = new QueryBuilder();

const clusterColumns = {
  id: clusters.id,
  name: clusters.name,
  workspaceId: clusters.workspaceId,
  creatorId: clusters.creatorId,
  backendType: clusters.backendType,
  state: clusters.state,
  desiredState: clusters.desiredState,
  desiredWorkers: clusters.desiredWorkers,
  workerCores: clusters.workerCores,
  softwareBuildId: clusters.softwareBuildId,
  tags: clusters.tags,
  options: clusters.options,
};

/** Clusters as other domains join them (`cluster_id` columns point here). */
export const clusterView = qb.select(clusterColumns).from(clusters).as('cluster_view');

/** Clusters that are live: asked for and not ended (states.ts `sqlLiveCluster`). */
export const liveClusterView = qb
  .select(clusterColumns)
  .from(clusters)
  .where(sqlLiveCluster)
  .as('live_clusters');

/** Instances (the machines of clusters) as other domains join them. */
export const instanceView = qb
  .select({
    id: instances.id,
    clusterId: instances.clusterId,
    role: instances.role,
    name: instances.name,
    instanceType: instances.instanceType,
    state: instances.state,
    stateUpdated: instances.stateUpdated,
    privateIpAddress: instances.privateIpAddress,
    launchedAt: instances.launchedAt,
    releasedAt: instances.releasedAt,
  })
  .from(instances)
  .as('instance_view');

/** What a cluster's machines are, per role (`instance_specs`). */
export const instanceSpecView = qb
  .select({
    clusterId: instanceSpecs.clusterId,
    role: instanceSpecs.role,
    instanceType: instanceSpecs.instanceType,
    cores: instanceSpecs.cores,
    memoryMib: instanceSpecs.memoryMib,
    gpus: instanceSpecs.gpus,
  })
  .from(instanceSpecs)
  .as('instance_spec_view');

export async function findCluster(db: Db, clusterId: number): Promise<Cluster | null> {
  const [row] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
  return row ?? null;
}

export async function findInstance(db: Db, instanceId: number): Promise<Instance | null> {
  const [row] = await db.select().from(instances).where(eq(instances.id, instanceId));
  return row ?? null;
}

/** Builds that clusters which have not ended run on (software keeps those). */
export async function buildsOfClusters(db: Db): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: clusters.softwareBuildId })
    .from(clusters)
    .where(and(isNotNull(clusters.softwareBuildId), notInArray(clusters.state, ['stopped', 'error'])));
  return rows.flatMap((r) => (r.id === null ? [] : [r.id]));
}

/** Clusters of a workspace on a backend that run, or still hold machines there (which a change of cloud would strand). */
export async function clustersHoldingMachines(
  db: Db,
  workspaceId: number,
  backendType: string,
): Promise<{ id: number; name: string }[]> {
  const holding = db
    .select({ n: count() })
    .from(instances)
    .where(
      and(
        eq(instances.clusterId, clusters.id),
        isNull(instances.releasedAt),
        isNotNull(instances.launchedAt),
      ),
    );
  return db
    .select({ id: clusters.id, name: clusters.name })
    .from(clusters)
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        eq(clusters.backendType, backendType),
        or(inArray(clusters.state, [...CLUSTER_UP, 'stopping', 'pausing']), sql`(${holding}) > 0`),
      ),
    )
    .orderBy(clusters.id);
}

// What observability reads of a cluster's life (its metrics and analytics): instances, processes,
// state history, log lines and events, and where a scheduler's analytics events are kept.

/** A cluster by its workspace's slug and its id (a signed link: no user to check access for). */
export async function findClusterBySlug(db: Db, slug: string, clusterId: number): Promise<Cluster | null> {
  const [row] = await db
    .select({ cluster: clusters })
    .from(clusters)
    .innerJoin(workspaceView, eq(workspaceView.id, clusters.workspaceId))
    .where(and(eq(workspaceView.slug, slug), eq(clusters.id, clusterId)));
  return row?.cluster ?? null;
}

/** A workspace's clusters, newest first: those named (`ids`), created since, by a creator. */
export function workspaceClusters(
  db: Db,
  workspaceId: number,
  filter: {
    ids?: number[] | undefined;
    since?: Date | undefined;
    creatorId?: number | undefined;
    limit: number;
    offset?: number | undefined;
  },
): Promise<Cluster[]> {
  return db
    .select()
    .from(clusters)
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        filter.ids ? inArray(clusters.id, filter.ids) : undefined,
        filter.since !== undefined ? gte(clusters.created, filter.since) : undefined,
        filter.creatorId !== undefined ? eq(clusters.creatorId, filter.creatorId) : undefined,
      ),
    )
    .orderBy(desc(clusters.created), desc(clusters.id))
    .limit(filter.limit)
    .offset(filter.offset ?? 0);
}

/** A cluster's instances, in the order they were made. */
export function instancesOf(db: Db, clusterId: number): Promise<Instance[]> {
  return db.select().from(instances).where(eq(instances.clusterId, clusterId)).orderBy(instances.id);
}

/** The instance of a cluster its backend knows by `backendId`. */
export async function instanceByBackendId(
  db: Db,
  clusterId: number,
  backendId: string,
): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: instances.id })
    .from(instances)
    .where(and(eq(instances.clusterId, clusterId), eq(instances.backendId, backendId)))
    .limit(1);
  return row ?? null;
}

/** A cluster's processes (scheduler and workers). */
export function processesOf(db: Db, clusterId: number): Promise<ClusterProcess[]> {
  return db.select().from(clusterProcesses).where(eq(clusterProcesses.clusterId, clusterId));
}

/** The state changes of some of a cluster's objects up to `until`, oldest first. */
export function stateChanges(
  db: Db,
  clusterId: number,
  types: Array<'worker' | 'scheduler_instance' | 'worker_instance'>,
  objectIds: number[],
  until: Date,
): Promise<Array<{ objectId: number; state: string; created: Date }>> {
  return db
    .select({ objectId: stateHistory.objectId, state: stateHistory.state, created: stateHistory.created })
    .from(stateHistory)
    .where(
      and(
        eq(stateHistory.clusterId, clusterId),
        inArray(stateHistory.objectType, types),
        inArray(stateHistory.objectId, objectIds),
        lte(stateHistory.created, until),
      ),
    )
    .orderBy(asc(stateHistory.created), asc(stateHistory.id));
}

/** Log lines of some instances of a cluster between two times (ms), counted per instance and step. */
export function logLinesPerStep(
  db: Db,
  clusterId: number,
  instanceIds: number[],
  window: { startMs: number; endMs: number; stepMs: number },
): Promise<Array<{ instanceId: number; bucket: number; n: number }>> {
  return db
    .select({
      instanceId: instanceLogs.instanceId,
      bucket: sql<number>`floor((${instanceLogs.timestampMs} - ${window.startMs}) / ${window.stepMs})::int`,
      n: sql<number>`count(*)::int`,
    })
    .from(instanceLogs)
    .where(
      and(
        eq(instanceLogs.clusterId, clusterId),
        inArray(instanceLogs.instanceId, instanceIds),
        gte(instanceLogs.timestampMs, window.startMs),
        lte(instanceLogs.timestampMs, window.endMs),
      ),
    )
    .groupBy(sql`1`, sql`2`);
}

/** How many log lines a cluster's instances sent. */
export async function logLineCount(db: Db, clusterId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(instanceLogs)
    .where(eq(instanceLogs.clusterId, clusterId));
  return row?.n ?? 0;
}

/** What the control loop keeps of a cluster, in counts (the metrics' debug call). */
export async function clusterRecordCounts(db: Db, clusterId: number) {
  const [perInstance, processes, sources, events, [changes]] = await Promise.all([
    db
      .select({ id: instanceLogs.instanceId, n: sql<number>`count(*)::int` })
      .from(instanceLogs)
      .where(eq(instanceLogs.clusterId, clusterId))
      .groupBy(instanceLogs.instanceId),
    db
      .select({
        key: sql<string>`${clusterProcesses.role} || ':' || ${clusterProcesses.state}`,
        n: sql<number>`count(*)::int`,
      })
      .from(clusterProcesses)
      .where(eq(clusterProcesses.clusterId, clusterId))
      .groupBy(sql`1`),
    db
      .select({ key: instanceLogs.source, n: sql<number>`count(*)::int` })
      .from(instanceLogs)
      .where(eq(instanceLogs.clusterId, clusterId))
      .groupBy(instanceLogs.source),
    db
      .select({ key: clusterEvents.kind, n: sql<number>`count(*)::int` })
      .from(clusterEvents)
      .where(eq(clusterEvents.clusterId, clusterId))
      .groupBy(clusterEvents.kind),
    db.select({ n: count() }).from(stateHistory).where(eq(stateHistory.clusterId, clusterId)),
  ]);
  return { perInstance, processes, sources, events, stateChanges: changes?.n ?? 0 };
}

/** An event about a cluster (`cluster_events`): what its scheduler's analytics report, among others. */
export type ClusterEvent = typeof clusterEvents.$inferSelect;
export type NewClusterEvent = Pick<
  typeof clusterEvents.$inferInsert,
  'clusterId' | 'kind' | 'topic' | 'message' | 'data'
>;

/** Records events about clusters (in the caller's transaction, when given one). */
export async function recordClusterEvents(db: Db, events: NewClusterEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(clusterEvents).values(events);
}

/** A cluster's events of one kind, newest first, a page of them. */
export function clusterEventsOf(
  db: Db,
  clusterId: number,
  kind: string,
  page: { limit: number; offset: number },
): Promise<ClusterEvent[]> {
  return db
    .select()
    .from(clusterEvents)
    .where(and(eq(clusterEvents.clusterId, clusterId), eq(clusterEvents.kind, kind)))
    .orderBy(desc(clusterEvents.created), desc(clusterEvents.id))
    .limit(page.limit)
    .offset(page.offset);
}
