import { eq } from 'drizzle-orm';
import { type Cluster, clusters } from '../../../db/schema/index.js';
import { wants } from '../desired.js';
import { isEnded } from '../states.js';
import { setClusterState } from '../transitions.js';
import { after, type ClusterLoopContext, SOON_MS } from './context.js';
import {
  isActive,
  launchQueued,
  loadMachines,
  type Machine,
  observeMachines,
  releaseUnwanted,
} from './machines.js';
import { clusterTimeoutReason, lookBy } from './timeout.js';

/** Workers that fail to launch this many times in a row fail the cluster instead of being replaced again. */
const LAUNCH_FAILURES_TO_GIVE_UP = 3;

/**
 * A cluster that should run and does (or is on its way): notice failed machines, keep one
 * scheduler and the desired workers, launch what is queued, stop what is no longer wanted, and
 * say whether the cluster is ready.
 */
export async function converge(ctx: ClusterLoopContext, cluster: Cluster): Promise<Date | null> {
  const { db } = ctx;
  const timedOut = clusterTimeoutReason(cluster);
  if (timedOut) {
    await wants(db).stop(cluster.id, 'stopped', timedOut);
    return after(0);
  }
  const backend = await ctx.backends.forCluster(cluster);
  let machines = await loadMachines(db, cluster.id);
  if (await observeMachines(ctx, backend, machines)) machines = await loadMachines(db, cluster.id);

  const failure = clusterFailure(machines);
  if (failure) {
    await setClusterState(db, cluster.id, 'error', failure);
    await wants(db).stop(cluster.id, 'stopped', failure);
    return after(0);
  }

  if (await planMachines(ctx, cluster)) machines = await loadMachines(db, cluster.id);
  await launchQueued(ctx, backend, cluster, machines);
  await releaseUnwanted(ctx, backend, cluster.id, machines, (m) => m.process.desiredReason || 'Scaled down');
  const ready = await deriveState(ctx, cluster, await loadMachines(db, cluster.id));
  return lookBy(
    after(ready ? ctx.timings.reconcileIntervalMs : Math.min(SOON_MS * 2, ctx.timings.reconcileIntervalMs)),
    cluster,
  );
}

/**
 * A scheduler of this run of the cluster: one retired on purpose that has ended (a pause's, before
 * a resume) is history, not a failure, and the run after it gets a scheduler of its own.
 */
const isCurrentScheduler = (m: Machine) =>
  m.process.role === 'scheduler' && (m.process.desiredState === 'started' || !isEnded(m.process.state));

/** Why the cluster cannot go on: its scheduler ended, or workers keep failing to launch. */
function clusterFailure(machines: Machine[]): string | null {
  const schedulers = machines.filter(isCurrentScheduler);
  if (schedulers.length > 0 && !schedulers.some(isActive)) {
    const last = schedulers.at(-1)!.process;
    const how = last.state === 'error' ? 'failed' : 'stopped';
    return `Scheduler ${last.name} ${how}${last.stateReason ? `: ${last.stateReason}` : ''}`;
  }
  const recent = machines.filter((m) => m.process.role === 'worker').slice(-LAUNCH_FAILURES_TO_GIVE_UP);
  const neverLaunched = (m: Machine) => m.process.state === 'error' && !m.instance?.launchedAt;
  if (recent.length === LAUNCH_FAILURES_TO_GIVE_UP && recent.every(neverLaunched))
    return `Workers cannot be launched: ${recent.at(-1)!.process.stateReason}`;
  return null;
}

/**
 * Adds the scheduler and workers the cluster lacks and retires the extra ones; answers whether it
 * changed any. The desired count and the machines are read together, under the cluster row's lock:
 * a scale (adding or removing workers) changes both in one transaction, and a count read before it
 * with machines read after it would retire the worker just added (or add back one just removed).
 */
async function planMachines(ctx: ClusterLoopContext, cluster: Cluster): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ desiredWorkers: clusters.desiredWorkers })
      .from(clusters)
      .where(eq(clusters.id, cluster.id))
      .for('update');
    if (!row) return false;
    return planWith(wants(tx), cluster, row.desiredWorkers, await loadMachines(tx, cluster.id));
  });
}

async function planWith(
  want: ReturnType<typeof wants>,
  cluster: Cluster,
  desiredWorkers: number,
  machines: Machine[],
): Promise<boolean> {
  let changed = false;
  if (!machines.some(isCurrentScheduler)) {
    const runs = machines.filter((m) => m.process.role === 'scheduler').length;
    await want.addProcess(cluster, 'scheduler', runs + 1);
    changed = true;
  }
  const workers = machines.filter((m) => m.process.role === 'worker' && isActive(m));
  for (let n = workers.length; n < desiredWorkers; n++) {
    await want.addProcess(cluster, 'worker');
    changed = true;
  }
  if (workers.length > desiredWorkers) {
    // Retire the least useful first: not yet started, then the newest.
    const rank = (m: Machine) => (m.process.state === 'started' ? 1 : 0);
    const extra = [...workers]
      .sort((a, b) => rank(a) - rank(b) || b.process.id - a.process.id)
      .slice(0, workers.length - desiredWorkers);
    for (const m of extra) await want.retire(m.process, m.instance, 'Scaled down');
    changed = true;
  }
  return changed;
}

/** `ready` when the scheduler and the desired workers have started; `scaling` when a ready cluster is short. */
async function deriveState(ctx: ClusterLoopContext, cluster: Cluster, machines: Machine[]): Promise<boolean> {
  const schedulerUp = machines.some((m) => m.process.role === 'scheduler' && m.process.state === 'started');
  const active = machines.filter((m) => m.process.role === 'worker' && isActive(m));
  const started = active.filter((m) => m.process.state === 'started');
  if (schedulerUp && started.length >= cluster.desiredWorkers && active.length === cluster.desiredWorkers) {
    await setClusterState(ctx.db, cluster.id, 'ready');
    return true;
  }
  const short = cluster.state === 'ready' || cluster.state === 'scaling';
  await setClusterState(ctx.db, cluster.id, short ? 'scaling' : 'starting');
  return false;
}
