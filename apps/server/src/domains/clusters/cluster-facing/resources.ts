import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusterFiles, clusterProcesses, clusters, instances } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../http/errors.js';
import { sha256 } from '../../../lib/crypto.js';
import { isEnded } from '../states.js';

/** `GET cluster_facing/worker-ips`: where the cluster's live workers are (for firewalls, spark, ...). */
export async function workerIps(db: Db, clusterId: number) {
  const rows = await db
    .select({ process: clusterProcesses, instance: instances })
    .from(clusterProcesses)
    .innerJoin(instances, eq(instances.processId, clusterProcesses.id))
    .where(
      and(
        eq(clusterProcesses.clusterId, clusterId),
        eq(clusterProcesses.role, 'worker'),
        eq(clusterProcesses.desiredState, 'started'),
        ne(instances.desiredState, 'stopped'),
      ),
    )
    .orderBy(asc(clusterProcesses.id));
  const live = rows.filter((r) => !isEnded(r.process.state) && !isEnded(r.instance.state));
  const workers = live.map(({ process, instance }) => ({
    name: process.name,
    backend_id: instance.backendId,
    state: process.state,
    private_ip_address: instance.privateIpAddress,
    public_ip_address: instance.publicIpAddress,
  }));
  return {
    ips: [...new Set(workers.flatMap((w) => (w.private_ip_address ? [w.private_ip_address] : [])))],
    workers,
  };
}

/**
 * `GET cluster_facing/scheduler/dashboard/cert`: what the scheduler serves its dashboard with. A
 * certificate for a custom subdomain needs DNS and ACME, which a self-hosted server has not, so
 * it is the cluster's own self-signed certificate (the one clients already trust for Dask).
 */
export async function dashboardCertificate(deps: Deps, clusterId: number) {
  const [cluster] = await deps.db.select().from(clusters).where(eq(clusters.id, clusterId));
  const subdomain = cluster!.options.custom_subdomain;
  return {
    cert: cluster!.tlsCert,
    key: deps.secrets.decrypt(cluster!.tlsKeyBox),
    ca: cluster!.tlsCert,
    self_signed: true,
    subdomain: typeof subdomain === 'string' && subdomain ? subdomain : null,
  };
}

/** `GET cluster_facing/db-file-ref/{key}`: a file the control plane keeps for this cluster. */
export async function fileRef(db: Db, clusterId: number, key: string) {
  const [file] = await db
    .select()
    .from(clusterFiles)
    .where(and(eq(clusterFiles.clusterId, clusterId), eq(clusterFiles.key, key)));
  if (!file) throw notFound(`No file ${key} for this cluster.`);
  return { key: file.key, path: file.path, content: file.content, sha256: sha256(file.content) };
}
