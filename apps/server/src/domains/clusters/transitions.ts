import { and, eq, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  type ClusterProcess,
  type ClusterState,
  clusterProcesses,
  clusters,
  type InfraState,
  type Instance,
  type InstanceState,
  instances,
  type ProcessState,
  stateHistory,
} from '../../db/schema/index.js';
import { stateChanged } from './cluster-waits.js';
import { sqlNotEnded } from './states.js';

/**
 * Every change of what a cluster, process or instance *is* goes through here: the row's state and
 * the history the `states` call reads change together (one transaction: a reader never sees a
 * cluster's state without its history record), and only when the state really changes
 * (the conditional update makes concurrent writers record a transition once). Two callers: the
 * reconciler (reconcile/), which alone moves clusters, and what instances report of themselves
 * (observe.ts). Requests change desires instead (desired.ts).
 */

export async function setClusterState(
  db: Db,
  clusterId: number,
  state: ClusterState,
  reason = '',
): Promise<boolean> {
  const now = new Date();
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(clusters)
      .set({ state, stateReason: reason, stateUpdated: now, updated: now })
      .where(and(eq(clusters.id, clusterId), ne(clusters.state, state)))
      .returning({ name: clusters.name });
    if (!row) return false;
    await recordState(tx, clusterId, 'cluster', clusterId, row.name, state, reason, now);
    return true;
  });
  return heard(clusterId, changed);
}

/** A committed transition wakes the requests held until the cluster changes (cluster-waits.ts). */
function heard(clusterId: number, changed: boolean): boolean {
  if (changed) stateChanged(clusterId);
  return changed;
}

export async function setInfraState(db: Db, clusterId: number, state: InfraState, reason = '') {
  const now = new Date();
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(clusters)
      .set({ infraState: state, updated: now })
      .where(and(eq(clusters.id, clusterId), ne(clusters.infraState, state)))
      .returning({ name: clusters.name });
    if (row) await recordState(tx, clusterId, 'cluster_infra', clusterId, row.name, state, reason, now);
    return !!row;
  });
  heard(clusterId, changed);
}

/** Moves a process; a stopped or errored process stays so unless `force`. */
export async function setProcessState(
  db: Db,
  process: Pick<ClusterProcess, 'id' | 'clusterId' | 'role' | 'name'>,
  state: ProcessState,
  reason = '',
  extra: Partial<Pick<ClusterProcess, 'address'>> = {},
): Promise<boolean> {
  const now = new Date();
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(clusterProcesses)
      // A stop without a reason keeps the reason it was asked to stop for (also when the process
      // stops before the reconciler marked it stopping with that reason).
      .set({
        state,
        stateReason:
          reason ||
          (state === 'stopped'
            ? sql<string>`coalesce(nullif(${clusterProcesses.stateReason}, ''), ${clusterProcesses.desiredReason})`
            : ''),
        stateUpdated: now,
        ...extra,
      })
      .where(
        and(
          eq(clusterProcesses.id, process.id),
          ne(clusterProcesses.state, state),
          sqlNotEnded(clusterProcesses.state),
        ),
      )
      .returning({ id: clusterProcesses.id, reason: clusterProcesses.stateReason });
    if (!row) {
      if (Object.keys(extra).length > 0)
        await tx.update(clusterProcesses).set(extra).where(eq(clusterProcesses.id, process.id));
      return false;
    }
    await recordState(tx, process.clusterId, process.role, process.id, process.name, state, row.reason, now);
    return true;
  });
  return heard(process.clusterId, changed);
}

/** Moves an instance; a stopped or errored instance stays so. */
export async function setInstanceState(
  db: Db,
  instance: Pick<Instance, 'id' | 'clusterId' | 'role' | 'name'>,
  state: InstanceState,
  reason = '',
): Promise<boolean> {
  const now = new Date();
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(instances)
      // A stop without a reason keeps the reason it was asked to stop for.
      .set({ state, stateReason: reason || keepReason(instances.stateReason, state), stateUpdated: now })
      .where(and(eq(instances.id, instance.id), ne(instances.state, state), sqlNotEnded(instances.state)))
      .returning({ id: instances.id, reason: instances.stateReason });
    if (!row) return false;
    const type = instance.role === 'scheduler' ? 'scheduler_instance' : 'worker_instance';
    await recordState(tx, instance.clusterId, type, instance.id, instance.name, state, row.reason, now);
    return true;
  });
  return heard(instance.clusterId, changed);
}

const keepReason = (column: AnyPgColumn, state: string) =>
  state === 'stopped' ? sql<string>`${column}` : '';

/** Writes one history record (for first states, which no update produces). */
export function recordState(
  db: Db,
  clusterId: number,
  objectType: typeof stateHistory.$inferInsert.objectType,
  objectId: number,
  objectName: string,
  state: string,
  reason: string,
  created: Date,
) {
  return db
    .insert(stateHistory)
    .values({ clusterId, objectType, objectId, objectName, state, reason, created });
}

/** Says why a cluster stays where it is (waiting for its environment), without a transition. */
export async function noteClusterReason(db: Db, clusterId: number, reason: string): Promise<void> {
  await db
    .update(clusters)
    .set({ stateReason: reason })
    .where(and(eq(clusters.id, clusterId), ne(clusters.stateReason, reason)));
}
