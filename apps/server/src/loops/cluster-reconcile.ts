import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  type Cluster,
  type ClusterProcess,
  clusterProcesses,
  clusters,
  type Instance,
  instances,
} from '../db/schema/index.js';
import { addProcess, retireProcess } from '../modules/clusters/processes.js';
import { instanceShouldRun, isActiveProcess, isAtRest, isEnded } from '../modules/clusters/states.js';
import {
  setClusterState,
  setInfraState,
  setInstanceState,
  setProcessState,
} from '../modules/clusters/transitions.js';
import type { ClusterLoopDeps } from './clusters.js';

/**
 * Brings one cluster towards its desired state and answers when to look at it again (null when it
 * has settled). Every step reads the database afresh and is safe to repeat.
 */
export async function reconcileCluster(deps: ClusterLoopDeps, clusterId: number): Promise<Date | null> {
  const { db } = deps;
  const [cluster] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
  if (!cluster) return null;
  const again = new Date(Date.now() + deps.timings.reconcileIntervalMs);
  if (cluster.desiredState === 'ready' && !isAtRest(cluster.state)) {
    const failed = await ensureRunning(deps, cluster);
    if (!failed) return again;
  }
  const settled = await ensureStopped(deps, clusterId);
  return settled ? null : again;
}

interface Machine {
  process: ClusterProcess;
  instance: Instance | undefined;
}

async function load(db: Db, clusterId: number): Promise<Machine[]> {
  const [processes, rows] = await Promise.all([
    db
      .select()
      .from(clusterProcesses)
      .where(eq(clusterProcesses.clusterId, clusterId))
      .orderBy(clusterProcesses.id),
    db.select().from(instances).where(eq(instances.clusterId, clusterId)),
  ]);
  const byProcess = new Map(rows.map((i) => [i.processId, i]));
  return processes.map((process) => ({ process, instance: byProcess.get(process.id) }));
}

const active = (m: Machine) => isActiveProcess(m.process);

/** Returns true when the cluster failed (its scheduler is gone) and must be stopped instead. */
async function ensureRunning(deps: ClusterLoopDeps, cluster: Cluster): Promise<boolean> {
  const { db } = deps;
  if (cluster.infraState === 'queued' || cluster.infraState === 'creating') {
    // Local instances need no shared infrastructure; a cloud backend creates its network here.
    await setInfraState(db, cluster.id, 'creating');
    await setInfraState(db, cluster.id, 'created');
  }
  if (cluster.state === 'pending') await setClusterState(db, cluster.id, 'starting');

  await checkHeartbeats(deps, cluster);
  let machines = await load(db, cluster.id);

  const schedulers = machines.filter((m) => m.process.role === 'scheduler');
  const scheduler = schedulers.find(active);
  if (!scheduler && schedulers.length > 0) {
    const failed = schedulers.at(-1)!.process;
    const reason = `Scheduler ${failed.name} ${failed.state === 'error' ? 'failed' : 'stopped'}${failed.stateReason ? `: ${failed.stateReason}` : ''}`;
    await db.update(clusters).set({ desiredState: 'stopped' }).where(eq(clusters.id, cluster.id));
    await setClusterState(db, cluster.id, 'error', reason);
    return true;
  }
  if (!scheduler) await addProcess(db, cluster, deps.backend.type, 'scheduler');

  const workers = machines.filter((m) => m.process.role === 'worker' && active(m));
  for (let n = workers.length; n < cluster.desiredWorkers; n++) {
    await addProcess(db, cluster, deps.backend.type, 'worker');
  }
  if (workers.length > cluster.desiredWorkers) {
    // Retire the least useful first: not yet started, then the newest.
    const rank = (m: Machine) => (m.process.state === 'started' ? 1 : 0);
    const extra = [...workers]
      .sort((a, b) => rank(a) - rank(b) || b.process.id - a.process.id)
      .slice(0, workers.length - cluster.desiredWorkers);
    for (const m of extra) await retireProcess(db, m.process, m.instance, 'Scaled down');
  }

  machines = await load(db, cluster.id);
  await Promise.all(machines.map((m) => launchOrRelease(deps, cluster, m)));
  await deriveClusterState(db, cluster.id);
  return false;
}

/** Marks instances silent past the heartbeat timeout `error`, with their processes. */
async function checkHeartbeats(deps: ClusterLoopDeps, cluster: Cluster) {
  const { db } = deps;
  const rows = await db
    .select()
    .from(instances)
    .where(
      and(
        eq(instances.clusterId, cluster.id),
        eq(instances.desiredState, 'ready'),
        isNotNull(instances.launchedAt),
      ),
    );
  const timeout = deps.timings.heartbeatTimeoutMs;
  for (const instance of rows) {
    if (isEnded(instance.state)) continue;
    const seen = (instance.lastHeartbeat ?? instance.launchedAt)!.getTime();
    if (Date.now() - seen <= timeout) continue;
    const reason = `No heartbeat from instance ${instance.name} for ${Math.round(timeout / 1000)} seconds`;
    await setInstanceState(db, instance, 'error', reason);
    const [process] = await db
      .select()
      .from(clusterProcesses)
      .where(eq(clusterProcesses.id, instance.processId));
    if (process) await setProcessState(db, process, 'error', reason);
  }
}

/** Launches instances that should run and have not; stops (once) those that should not. */
async function launchOrRelease(deps: ClusterLoopDeps, cluster: Cluster, m: Machine) {
  const { db, backend } = deps;
  const instance = m.instance;
  if (!instance) return;
  const shouldRun = instanceShouldRun(instance, m.process);
  if (shouldRun && instance.state === 'queued' && !instance.launchedAt) {
    const backendData = await backend.launch({
      instanceId: instance.id,
      backendId: instance.backendId,
      clusterToken: deps.secrets.decrypt(cluster.tokenBox),
      serverUrl: deps.serverUrl,
      unreachableTimeoutMs: deps.timings.agentUnreachableMs,
    });
    await db
      .update(instances)
      .set({ backendData, launchedAt: new Date() })
      .where(eq(instances.id, instance.id));
    await setInstanceState(db, instance, 'starting');
    await setProcessState(db, m.process, 'starting');
    return;
  }
  if (!shouldRun && !instance.releasedAt) await release(deps, m);
}

async function release(deps: ClusterLoopDeps, m: Machine, reason = '') {
  const { db, backend } = deps;
  const instance = m.instance!;
  if (instance.launchedAt)
    await backend.stop({ backendId: instance.backendId, backendData: instance.backendData });
  await db
    .update(instances)
    .set({ desiredState: 'stopped', releasedAt: new Date() })
    .where(and(eq(instances.id, instance.id), isNull(instances.releasedAt)));
  await setInstanceState(db, instance, 'stopped', reason);
  await setProcessState(db, m.process, 'stopped', reason);
}

/** `ready` when the scheduler and the desired workers have started; `scaling` when a ready cluster is short. */
async function deriveClusterState(db: Db, clusterId: number) {
  const [cluster] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
  if (cluster?.desiredState !== 'ready' || isEnded(cluster.state)) return;
  const machines = await load(db, clusterId);
  const schedulerUp = machines.some((m) => m.process.role === 'scheduler' && m.process.state === 'started');
  const started = machines.filter(
    (m) => m.process.role === 'worker' && active(m) && m.process.state === 'started',
  );
  const workersActive = machines.filter((m) => m.process.role === 'worker' && active(m)).length;
  if (schedulerUp && started.length >= cluster.desiredWorkers && workersActive === cluster.desiredWorkers) {
    await setClusterState(db, clusterId, 'ready');
  } else if (cluster.state === 'ready' || cluster.state === 'scaling') {
    await setClusterState(db, clusterId, 'scaling');
  } else {
    await setClusterState(db, clusterId, 'starting');
  }
}

/** Stops every instance of a cluster that should not run; true once all are released. */
async function ensureStopped(deps: ClusterLoopDeps, clusterId: number): Promise<boolean> {
  const { db } = deps;
  const [cluster] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
  if (!cluster) return true;
  const final =
    cluster.state === 'error' ? 'error' : cluster.desiredState === 'paused' ? 'paused' : 'stopped';
  if (final !== 'error')
    await setClusterState(db, clusterId, final === 'paused' ? 'pausing' : 'stopping', cluster.stateReason);
  await setInfraState(db, clusterId, 'destroying');
  await db
    .update(clusterProcesses)
    .set({ desiredState: 'stopped' })
    .where(eq(clusterProcesses.clusterId, clusterId));
  await db.update(instances).set({ desiredState: 'stopped' }).where(eq(instances.clusterId, clusterId));
  const machines = await load(db, clusterId);
  const reason =
    final === 'error' ? 'Cluster failed' : final === 'paused' ? 'Cluster paused' : 'Cluster stopped';
  await Promise.all(
    machines.filter((m) => m.instance && !m.instance.releasedAt).map((m) => release(deps, m, reason)),
  );
  await setInfraState(db, clusterId, 'destroyed');
  if (final !== 'error') await setClusterState(db, clusterId, final, cluster.stateReason);
  return true;
}
