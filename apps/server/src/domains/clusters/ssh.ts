import { and, eq, isNull } from 'drizzle-orm';
import { type Cluster, clusterProcesses, clusters, type Instance, instances } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import { ed25519KeyPair } from '../../lib/ssh-keys.js';

/** Why the key opens nothing, by backend type (a backend that serves SSH says `ssh: true`). */
const NO_SSH: Record<string, string> = {
  in_process:
    'Instances of this Cumulus server are local processes on its own machine (backend in_process): ' +
    'no SSH server runs on them, so this key opens nothing.',
};
const REACH_INSTEAD =
  ' Reach the cluster through Dask (details: scheduler address, tls_cert, tls_key), its logs and its dashboard instead.';
const noSsh = (type: string) =>
  (NO_SSH[type] ?? `Instances of backend ${type} serve no SSH, so this key opens nothing.`) + REACH_INSTEAD;

/**
 * `GET clusters/account/{ws}/id/{id}/ssh-key`: the cluster's
 * Ed25519 key and where its scheduler (or the worker asked for, by name or address) is.
 */
export async function sshAccess(deps: Deps, cluster: Cluster, worker: string | undefined) {
  const keys = await sshKeys(deps, cluster);
  const backend = await deps.backends.forCluster(cluster);
  const { ssh } = backend.capabilities;
  const machines = await deps.db
    .select({ process: clusterProcesses, instance: instances })
    .from(clusterProcesses)
    .leftJoin(instances, eq(instances.processId, clusterProcesses.id))
    .where(eq(clusterProcesses.clusterId, cluster.id))
    .orderBy(clusterProcesses.id);
  const scheduler = machines.filter((m) => m.process.role === 'scheduler').at(-1);
  const schedulerInstance = scheduler?.instance ?? null;
  let workerAddress: string | null = null;
  if (worker) {
    const found = machines
      .filter((m) => m.process.role === 'worker')
      .reverse()
      .find(
        (m) =>
          // A full name, or what follows `<cluster>-worker` (how clients shorten worker names).
          [worker, `${cluster.name}-worker${worker}`, `${cluster.name}-worker-${worker}`].includes(
            m.process.name,
          ) ||
          (m.instance && [m.instance.privateIpAddress, m.instance.publicIpAddress].includes(worker)),
      );
    if (!found) throw notFound(`Cluster ${cluster.name} has no worker named ${worker}.`);
    workerAddress = addressOf(found.instance);
  }
  return {
    private_key: keys.privateKey,
    public_key: keys.publicKey,
    scheduler_public_address: schedulerInstance?.publicIpAddress ?? null,
    scheduler_private_address: schedulerInstance?.privateIpAddress ?? null,
    scheduler_hostname: hostOf(cluster.schedulerAddress),
    scheduler_state: schedulerInstance?.state ?? null,
    worker_address: workerAddress,
    scheduler_address_to_use: addressOf(schedulerInstance),
    ssh_available: ssh,
    detail: ssh ? '' : noSsh(backend.type),
  };
}

/** Clusters get their key at creation; older ones get one the first time it is asked for. */
async function sshKeys(deps: Deps, cluster: Cluster) {
  if (cluster.sshKeyBox && cluster.sshPublicKey)
    return { privateKey: deps.secrets.decrypt(cluster.sshKeyBox), publicKey: cluster.sshPublicKey };
  const fresh = ed25519KeyPair(`cumulus-${cluster.name}`);
  await deps.db
    .update(clusters)
    .set({ sshKeyBox: deps.secrets.encrypt(fresh.privateKey), sshPublicKey: fresh.publicKey })
    .where(and(eq(clusters.id, cluster.id), isNull(clusters.sshKeyBox)));
  // A concurrent first call may have won: everyone answers the stored key.
  const [row] = await deps.db.select().from(clusters).where(eq(clusters.id, cluster.id));
  return { privateKey: deps.secrets.decrypt(row!.sshKeyBox!), publicKey: row!.sshPublicKey! };
}

/** Public address when the instance has one, else its private one. */
const addressOf = (instance: Instance | null) =>
  instance?.publicIpAddress || instance?.privateIpAddress || null;

function hostOf(address: string | null): string | null {
  if (!address) return null;
  try {
    return new URL(address.replace(/^tls:/, 'http:')).hostname || null;
  } catch {
    return null;
  }
}
