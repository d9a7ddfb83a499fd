import type { Backend } from '../../compute/backend.js';
import type { Db } from '../../db/client.js';
import { type Cluster, clusterFiles, instanceSpecs } from '../../db/schema/index.js';
import type { CreateClusterBody } from './schemas.js';

/** The key of a cluster's host setup script among its files (`cluster_facing/db-file-ref/{key}`). */
export const HOST_SETUP_KEY = 'host-setup-script';

/**
 * What a new cluster gets beside its row, in the same transaction: the instance specs of its
 * scheduler and workers (the backend's machine for the types asked) and the files its instances
 * fetch (the host setup script).
 */
export async function recordClusterResources(
  tx: Db,
  backend: Backend,
  cluster: Cluster,
  body: CreateClusterBody,
): Promise<void> {
  const roles = [
    {
      role: 'scheduler' as const,
      types: body.scheduler_instance_types ?? [],
      disk: body.scheduler_disk_size ?? null,
      threads: null,
      memoryLimit: null,
    },
    {
      role: 'worker' as const,
      types: body.worker_instance_types ?? [],
      disk: body.worker_disk_size ?? null,
      threads: cluster.workerCores,
      memoryLimit: cluster.workerOptions.memory_limit ?? null,
    },
  ];
  await tx.insert(instanceSpecs).values(
    roles.map((r) => {
      const machine = backend.machineFor(r.types);
      return {
        clusterId: cluster.id,
        role: r.role,
        backendType: backend.type,
        instanceType: machine.instanceType,
        requestedTypes: r.types,
        cores: machine.cores,
        memoryMib: machine.memoryMib,
        gpus: machine.gpus,
        arch: machine.arch,
        diskSizeGib: r.disk,
        daskThreads: r.threads,
        daskMemoryLimit: r.memoryLimit === null ? null : String(r.memoryLimit).slice(0, 64),
      };
    }),
  );
  if (body.host_setup_script)
    await tx.insert(clusterFiles).values({
      clusterId: cluster.id,
      key: HOST_SETUP_KEY,
      path: 'host-setup.sh',
      content: body.host_setup_script,
    });
}
