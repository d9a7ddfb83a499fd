import { eq } from 'drizzle-orm';
import { describeFailure } from '../../../compute/backend.js';
import { type Cluster, clusters } from '../../../db/schema/index.js';
import type { LoopDomain } from '../../../loops/runner.js';
import { loopRows } from '../../../loops/runner.js';
import { clusterEnvironmentReadiness } from '../../software/index.js';
import { wants } from '../desired.js';
import { machinesOf } from '../limits.js';
import { noteClusterReason, setClusterState, setInfraState } from '../transitions.js';
import { after, type ClusterLoopContext, type Step } from './context.js';

/** How often a cluster waiting for its software environment looks again (a build's end also wakes it). */
const WAIT_FOR_BUILD_MS = 2_000;

import { converge } from './converge.js';
import { stop } from './stop.js';

export type { ClusterLoopContext } from './context.js';

/**
 * Brings one cluster a step towards what it should be and answers when to look again (null once
 * settled). Every step reads the database afresh and is safe to repeat: after a crash, a lost
 * lease or a failure the runner simply calls again.
 */
export async function reconcileCluster(ctx: ClusterLoopContext, clusterId: number): Promise<Date | null> {
  const [cluster] = await ctx.db.select().from(clusters).where(eq(clusters.id, clusterId));
  if (!cluster) return null;
  return stepFor(cluster)(ctx, cluster);
}

/** The step for where a cluster stands and where it should be (dask-gateway's reconcile_cluster). */
export function stepFor(cluster: Pick<Cluster, 'state' | 'desiredState'>): Step {
  if (cluster.desiredState !== 'ready') return stop;
  switch (cluster.state) {
    case 'paused':
      return resume;
    case 'pending':
      return provision;
    case 'starting':
    case 'scaling':
    case 'ready':
      return converge;
    // A stop under way finishes before anything else happens to the cluster.
    case 'stopping':
    case 'pausing':
      return stop;
    case 'stopped':
    case 'error':
      return settled;
  }
}

/** A paused cluster asked to run again starts over from `pending`. */
const resume: Step = async (ctx, cluster) => {
  await setClusterState(ctx.db, cluster.id, 'pending', cluster.desiredReason);
  await setInfraState(ctx.db, cluster.id, 'queued');
  return provision(ctx, { ...cluster, state: 'pending', infraState: 'queued' });
};

/**
 * What the cluster's machines share (a cloud backend's network; nothing locally), then start them
 * — once its software environment is built: until then it waits, saying so; a failed build fails it.
 */
const provision: Step = async (ctx, cluster) => {
  if (cluster.softwareBuildId !== null) {
    // On each architecture its machines are (vm_aws builds per architecture).
    const machines = await machinesOf(ctx.db, cluster.id);
    const software = await clusterEnvironmentReadiness(
      ctx.db,
      await ctx.backends.forCluster(cluster),
      cluster.softwareBuildId,
      [machines.workerArch, machines.schedulerArch],
    );
    if (!software.ready && software.failed) {
      await setClusterState(ctx.db, cluster.id, 'error', software.reason);
      await wants(ctx.db).stop(cluster.id, 'stopped', software.reason);
      return after(0);
    }
    if (!software.ready) {
      await noteClusterReason(ctx.db, cluster.id, software.reason);
      return after(WAIT_FOR_BUILD_MS);
    }
  }
  await setInfraState(ctx.db, cluster.id, 'creating');
  await setInfraState(ctx.db, cluster.id, 'created');
  await setClusterState(ctx.db, cluster.id, 'starting');
  return converge(ctx, { ...cluster, state: 'starting', infraState: 'created' });
};

/** Nothing runs and nothing should. */
const settled: Step = async () => null;

/** Clusters as a domain of the loop runner: a failing cluster is retried from one interval up to five minutes apart. */
export function clusterDomain(ctx: ClusterLoopContext): LoopDomain {
  return {
    name: 'clusters',
    rows: loopRows(clusters),
    reconcile: (id) => reconcileCluster(ctx, id),
    backoff: {
      initialMs: ctx.timings.reconcileIntervalMs,
      capMs: 5 * 60_000,
      describeError: describeFailure,
    },
    intervalMs: ctx.timings.reconcileIntervalMs,
  };
}
