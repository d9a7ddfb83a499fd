import type { Cluster } from '../../../db/schema/index.js';
import { wants } from '../desired.js';
import { firewallOf } from '../firewall-spec.js';
import { CLUSTER_UP } from '../states.js';
import { setClusterState, setInfraState } from '../transitions.js';
import { after, type ClusterLoopContext, SOON_MS } from './context.js';
import { loadMachines, placeOf, releaseUnwanted } from './machines.js';

/**
 * A cluster that should stop, pause — or has failed: show it stopping, retire every machine,
 * stop them through the backend and wait until the backend confirms each gone. Only then is the
 * cluster stopped (paused; a failed one stays `error`) and settled.
 */
export async function stop(ctx: ClusterLoopContext, cluster: Cluster): Promise<Date | null> {
  const { db } = ctx;
  const failed = cluster.state === 'error';
  const pausing = cluster.desiredState === 'paused' || cluster.state === 'pausing';
  const final = pausing ? 'paused' : 'stopped';
  const reason = cluster.desiredReason || cluster.stateReason;
  if ((CLUSTER_UP as readonly string[]).includes(cluster.state))
    await setClusterState(db, cluster.id, pausing ? 'pausing' : 'stopping', reason);
  if (cluster.infraState !== 'destroyed') await setInfraState(db, cluster.id, 'destroying');

  const why = failed ? 'Cluster failed' : pausing ? 'Cluster paused' : 'Cluster stopped';
  await wants(db).retireAll(cluster.id, why);
  const backend = await ctx.backends.forCluster(cluster);
  const machines = await loadMachines(db, cluster.id);
  const allGone = await releaseUnwanted(ctx, backend, cluster.id, machines, () => why);
  if (!allGone) return after(SOON_MS);

  // What the machines shared (a cluster's firewall, its local uid) goes once they have: a refusal
  // is retried with backoff (the cluster already shows stopped), until nothing is left behind.
  if (backend.releaseCluster && cluster.infraState !== 'destroyed') {
    if (!failed) await setClusterState(db, cluster.id, final, reason);
    await backend.releaseCluster({
      clusterId: cluster.id,
      workspaceId: cluster.workspaceId,
      firewall: !!firewallOf(cluster.options),
      ...placeOf(cluster),
    });
  }
  await setInfraState(db, cluster.id, 'destroyed');
  if (!failed) await setClusterState(db, cluster.id, final, reason);
  return null;
}
