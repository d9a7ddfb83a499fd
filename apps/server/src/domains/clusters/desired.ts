import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type ClusterProcess,
  clusterProcesses,
  clusters,
  type Instance,
  instances,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { randomHex } from '../../lib/crypto.js';

/**
 * The one writer of what a cluster should be: its desired state and why, how many workers, which
 * processes should run — and when the reconciler should look again. Services, the reconciler and
 * what instances report all change a cluster's desires through here; only the reconciler
 * (reconcile/) changes what a cluster *is*.
 *
 * `desire()` runs the change in one transaction and wakes the cluster loop once it has committed,
 * so the loop never looks before the change is visible.
 */
export async function desire<T>(
  deps: Pick<Deps, 'db' | 'loops'>,
  change: (tx: Db, want: Wants) => Promise<T>,
): Promise<T> {
  const result = await deps.db.transaction((tx) => change(tx, wants(tx)));
  deps.loops.wake('clusters');
  return result;
}

/** Asks the loop to look at a cluster now (something it should know about happened). */
export async function lookAt(deps: Pick<Deps, 'db' | 'loops'>, clusterId: number): Promise<void> {
  await wants(deps.db).look(clusterId);
  deps.loops.wake('clusters');
}

/** Clusters waiting for a build that just ended look again now (they start, or fail with it). */
export async function lookAtClustersOfBuild(
  deps: Pick<Deps, 'db' | 'loops'>,
  buildId: number,
): Promise<void> {
  await deps.db
    .update(clusters)
    .set({ reconcileAt: new Date() })
    .where(and(eq(clusters.softwareBuildId, buildId), eq(clusters.state, 'pending')));
  deps.loops.wake('clusters');
}

export type Wants = ReturnType<typeof wants>;

/** `<cluster name>-worker-<unique id>`, the naming clients rely on to scale down by suffix. */
export const workerName = (clusterName: string) => `${clusterName}-worker-${randomHex(5)}`;
export const schedulerName = (clusterName: string) => `${clusterName}-scheduler`;

/** The desire writes, inside the caller's transaction (`desire()` wakes the loop after it). */
export function wants(tx: Db) {
  const due = () => new Date();
  const look = async (clusterId: number) => {
    await tx.update(clusters).set({ reconcileAt: due() }).where(eq(clusters.id, clusterId));
  };
  return {
    /** Look at the cluster now. */
    look,

    /** Run (resume) the cluster. */
    async run(clusterId: number, reason: string) {
      await tx
        .update(clusters)
        .set({ desiredState: 'ready', desiredReason: reason, reconcileAt: due(), updated: new Date() })
        .where(eq(clusters.id, clusterId));
    },

    /**
     * Stop (or pause) the cluster. The first request wins: a cluster already asked to stop keeps
     * its reason. Answers whether this request changed anything.
     */
    async stop(clusterId: number, desired: 'stopped' | 'paused', reason: string): Promise<boolean> {
      const changed = await tx
        .update(clusters)
        .set({ desiredState: desired, desiredReason: reason, reconcileAt: due(), updated: new Date() })
        .where(and(eq(clusters.id, clusterId), eq(clusters.desiredState, 'ready')))
        .returning({ id: clusters.id });
      return changed.length > 0;
    },

    /** Nothing of the cluster should run any more (it stops or fails). */
    async retireAll(clusterId: number, reason: string) {
      await tx
        .update(clusterProcesses)
        .set({ desiredState: 'stopped', desiredReason: reason })
        .where(and(eq(clusterProcesses.clusterId, clusterId), eq(clusterProcesses.desiredState, 'started')));
      await tx
        .update(instances)
        .set({ desiredState: 'stopped' })
        .where(and(eq(instances.clusterId, clusterId), eq(instances.desiredState, 'ready')));
    },

    /** So many workers should run. */
    async workers(clusterId: number, n: number) {
      await tx
        .update(clusters)
        .set({ desiredWorkers: n, reconcileAt: due() })
        .where(eq(clusters.id, clusterId));
    },

    /**
     * A new scheduler or worker that should run, with the instance it will run on (queued; the
     * reconciler launches it). The backend id is chosen here, before any launch, so launching can
     * be retried and adopted. It makes the cluster due no sooner: the reconciler adds processes
     * itself (a wake from its own writes would defeat its backoff); requests change `workers`.
     */
    async addProcess(
      cluster: { id: number; name: string; backendType: string },
      role: 'scheduler' | 'worker',
      /** The cluster's run: a resumed cluster's scheduler is `<cluster>-scheduler-2`, and so on. */
      run = 1,
    ): Promise<ClusterProcess> {
      const scheduler = run > 1 ? `${schedulerName(cluster.name)}-${run}` : schedulerName(cluster.name);
      const name = role === 'scheduler' ? scheduler : workerName(cluster.name);
      const [process] = await tx
        .insert(clusterProcesses)
        .values({ clusterId: cluster.id, role, name })
        .returning();
      const prefix = cluster.backendType === 'in_process' ? 'local' : cluster.backendType;
      await tx.insert(instances).values({
        clusterId: cluster.id,
        processId: process!.id,
        role,
        name,
        backendType: cluster.backendType,
        backendId: `${prefix}-${randomHex(8)}`,
      });
      return process!;
    },

    /** A process (and its instance) that should no longer run. */
    async retire(
      process: Pick<ClusterProcess, 'id'>,
      instance: Pick<Instance, 'id'> | undefined,
      reason: string,
    ) {
      await tx
        .update(clusterProcesses)
        .set({ desiredState: 'stopped', desiredReason: reason })
        .where(eq(clusterProcesses.id, process.id));
      if (instance)
        await tx.update(instances).set({ desiredState: 'stopped' }).where(eq(instances.id, instance.id));
    },
  };
}
