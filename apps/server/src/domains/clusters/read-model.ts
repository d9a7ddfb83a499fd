import { and, count, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { type Cluster, clusters, type Instance, instanceSpecs, instances } from '../../db/schema/index.js';
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
