import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type ClusterProcess,
  clusterProcesses,
  clusters,
  type Instance,
  instances,
  type User,
} from '../../../db/schema/index.js';
import { badRequest, notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import type { IdentityDeps } from '../../identity/index.js';
import { assertMayManage, type ClusterAccess } from '../access.js';
import { desire } from '../desired.js';
import {
  assertWithinCoreLimit,
  assertWithinNodeLimit,
  assertWithinSpotArmLimits,
  kindsOf,
  machinesOf,
} from '../limits.js';
import { presentProcess } from '../present.js';
import { isActiveProcess, isLive, stateSentence } from '../states.js';
import type { addWorkersBody, listWorkersQuery, removeWorkersQuery, workerSchema } from './schemas.js';

type Worker = z.infer<typeof workerSchema>;

async function withInstances(db: Db, processes: ClusterProcess[]): Promise<Worker[]> {
  if (processes.length === 0) return [];
  const rows = await db
    .select()
    .from(instances)
    .where(
      inArray(
        instances.processId,
        processes.map((p) => p.id),
      ),
    );
  const byProcess = new Map<number, Instance>(rows.map((i) => [i.processId, i]));
  return processes.map((p) => ({ ...presentProcess(p, byProcess.get(p.id)), cluster_id: p.clusterId }));
}

/** `GET workers/account/{ws}/cluster/{id}/`: a bare array, oldest first. */
export async function listWorkers(db: Db, clusterId: number, query: z.infer<typeof listWorkersQuery>) {
  const rows = await db
    .select()
    .from(clusterProcesses)
    .where(
      and(
        eq(clusterProcesses.clusterId, clusterId),
        eq(clusterProcesses.role, 'worker'),
        query.name.length > 0 ? inArray(clusterProcesses.name, query.name) : undefined,
      ),
    )
    .orderBy(asc(clusterProcesses.id))
    .limit(query.limit)
    .offset(query.offset);
  return withInstances(db, rows);
}

export async function getWorker(db: Db, workspaceId: number, workerId: number) {
  const [row] = await db
    .select({ process: clusterProcesses })
    .from(clusterProcesses)
    .innerJoin(clusters, eq(clusters.id, clusterProcesses.clusterId))
    .where(
      and(
        eq(clusterProcesses.id, workerId),
        eq(clusters.workspaceId, workspaceId),
        eq(clusterProcesses.role, 'worker'),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Worker not found.');
  const [worker] = await withInstances(db, [row.process]);
  return worker!;
}

const assertRunning = (target: ClusterAccess) => {
  const c = target.cluster;
  if (!isLive(c))
    throw badRequest(
      `${stateSentence(`Cluster ${c.name}`, c.state)}; only a running cluster can be scaled.`,
      'CLUSTER_NOT_RUNNING',
    );
};

/** Adds `n_workers` workers, within the creator's core limit; answers the new workers. */
export async function addWorkers(
  deps: IdentityDeps,
  user: User,
  target: ClusterAccess,
  body: z.infer<typeof addWorkersBody>,
) {
  assertMayManage(user, target);
  assertRunning(target);
  const { cluster } = target;
  if (body.n_workers === 0) return [];
  const created = await desire(deps, async (tx, want) => {
    const [row] = await tx.select().from(clusters).where(eq(clusters.id, cluster.id)).for('update');
    if (cluster.creatorId !== null)
      await assertWithinCoreLimit(
        tx,
        deps.identityPorts.plans,
        target.access,
        cluster.creatorId,
        body.n_workers * row!.workerCores,
      );
    await assertWithinNodeLimit(tx, deps.identityPorts.plans, target.access.organization, body.n_workers);
    const machines = await machinesOf(tx, cluster.id);
    await assertWithinSpotArmLimits(
      tx,
      deps.identityPorts.plans,
      target.access.organization,
      kindsOf(machines, body.n_workers, false),
    );
    await want.workers(cluster.id, row!.desiredWorkers + body.n_workers);
    const added: ClusterProcess[] = [];
    for (let i = 0; i < body.n_workers; i++) added.push(await want.addProcess(cluster, 'worker'));
    return added;
  });
  return withInstances(deps.db, created);
}

/**
 * Retires workers named in full or by their suffix after `<cluster name>-worker` (as clients
 * send them), or down to `target`; the desired count drops with them.
 */
export async function removeWorkers(
  deps: IdentityDeps,
  user: User,
  target: ClusterAccess,
  query: z.infer<typeof removeWorkersQuery>,
) {
  assertMayManage(user, target);
  const { cluster } = target;
  const prefix = `${cluster.name}-worker`;
  const wanted = new Set(query.name.map((n) => (n.startsWith(prefix) ? n : `${prefix}${n}`)));
  const reason = query.reason || `Scaled down by ${user.username}`;
  return desire(deps, async (tx, want) => {
    const [row] = await tx.select().from(clusters).where(eq(clusters.id, cluster.id)).for('update');
    const rows = await tx
      .select({ process: clusterProcesses, instance: instances })
      .from(clusterProcesses)
      .leftJoin(instances, eq(instances.processId, clusterProcesses.id))
      .where(and(eq(clusterProcesses.clusterId, cluster.id), eq(clusterProcesses.role, 'worker')));
    const active = rows.filter((r) => isActiveProcess(r.process));
    const chosen = active.filter((r) => wanted.has(r.process.name));
    for (const r of chosen) await want.retire(r.process, r.instance ?? undefined, reason);
    let desired = Math.max(0, row!.desiredWorkers - chosen.length);
    if (query.target !== undefined && wanted.size === 0) desired = query.target;
    if (chosen.length > 0 || desired !== row!.desiredWorkers) await want.workers(cluster.id, desired);
    return { removed: chosen.map((r) => r.process.name), desired_workers: desired };
  });
}
