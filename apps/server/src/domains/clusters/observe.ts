import { eq } from 'drizzle-orm';
import {
  type ClusterProcess,
  clusters,
  type Instance,
  type InstanceState,
  instances,
  type ProcessState,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { desire, lookAt } from './desired.js';
import { setInstanceState, setProcessState } from './transitions.js';

/**
 * What instances report of themselves (the agent's phone-home calls): an instance's and a
 * process's own state, the scheduler's address — observations the reconciler acts on at once, so
 * every change wakes it. A scheduler that asks for its cluster to stop (idle timeout, no client)
 * changes the cluster's desire, like any other request (to pause, for a cluster made with
 * `pause_on_exit`).
 */

export async function reportInstance(
  deps: Pick<Deps, 'db' | 'loops'>,
  instance: Instance,
  report: {
    state: InstanceState;
    reason?: string | undefined;
    privateIp?: string | null | undefined;
    publicIp?: string | null | undefined;
  },
) {
  await deps.db
    .update(instances)
    .set({
      lastHeartbeat: new Date(),
      // An agent's word on its own addresses fills them only while none is recorded: the proxy goes
      // to the instance's address (served-address.ts), which a cluster's token must not move.
      ...(report.privateIp !== undefined &&
        !instance.privateIpAddress && { privateIpAddress: report.privateIp }),
      ...(report.publicIp !== undefined && !instance.publicIpAddress && { publicIpAddress: report.publicIp }),
    })
    .where(eq(instances.id, instance.id));
  if (await setInstanceState(deps.db, instance, report.state, report.reason ?? ''))
    await lookAt(deps, instance.clusterId);
}

export async function reportProcess(
  deps: Pick<Deps, 'db' | 'loops'>,
  process: ClusterProcess,
  report: {
    state?: ProcessState | undefined;
    reason?: string | undefined;
    address?: string | undefined;
    dashboardAddress?: string | null | undefined;
    dashboardAvailable?: boolean | undefined;
    stopClusterReason?: string | undefined;
  },
) {
  const { db } = deps;
  const { address } = report;
  if (process.role === 'scheduler' && address && report.state === 'started') {
    const port = Number(/:(\d+)$/.exec(address)?.[1] ?? 0);
    await db
      .update(clusters)
      .set({
        schedulerAddress: address,
        schedulerPort: port,
        dashboardAddress: report.dashboardAddress ?? null,
        dashboardAvailable: !!report.dashboardAddress && !!report.dashboardAvailable,
      })
      .where(eq(clusters.id, process.clusterId));
  }
  // A report that says again what is recorded (agents repeat theirs after an outage) writes nothing.
  const news = report.state !== process.state || (!!address && address !== process.address);
  const changed =
    report.state && news
      ? await setProcessState(db, process, report.state, report.reason ?? '', address ? { address } : {})
      : false;
  const stopReason = process.role === 'scheduler' ? report.stopClusterReason : undefined;
  if (stopReason) {
    // `pause_on_exit`: a cluster that ends by itself (idle, no client) pauses instead, to be resumed by name.
    const [cluster] = await db
      .select({ pauseOnExit: clusters.pauseOnExit })
      .from(clusters)
      .where(eq(clusters.id, process.clusterId));
    const end = cluster?.pauseOnExit ? 'paused' : 'stopped';
    await desire(deps, (_tx, want) => want.stop(process.clusterId, end, stopReason));
  } else if (changed) await lookAt(deps, process.clusterId);
}
