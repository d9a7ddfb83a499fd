import type { Backend, MachineShape } from '../../compute/backend.js';
import type { Db } from '../../db/client.js';
import { type Cluster, instanceSpecs } from '../../db/schema/index.js';
import type { ClusterMachines } from './limits.js';
import type { CreateClusterBody } from './schemas.js';

/**
 * What a new cluster's machines will be, for the plan's spot and ARM limits (read before its
 * transaction: the workspace's spot setting comes from the backend): each role's architecture as
 * its instance spec will record it, and whether its workers run on spot.
 */
export async function clusterMachines(
  backend: Backend,
  workspaceId: number,
  body: CreateClusterBody,
): Promise<ClusterMachines> {
  const asked = (body.options as { spot?: unknown } | null | undefined)?.spot;
  return {
    schedulerArch: backend.machineFor(body.scheduler_instance_types ?? []).arch,
    workerArch: backend.machineFor(body.worker_instance_types ?? []).arch,
    spotWorkers:
      backend.capabilities.spot && backend.spotWorkers
        ? await backend.spotWorkers(workspaceId, typeof asked === 'boolean' ? asked : undefined)
        : false,
  };
}

/**
 * What a new cluster gets beside its row, in the same transaction: the instance specs of its
 * scheduler and workers (the backend's machine for the types asked).
 */
export async function recordClusterResources(
  tx: Db,
  backend: Backend,
  cluster: Cluster,
  body: CreateClusterBody,
  spotWorkers: boolean,
  machines?: { scheduler: MachineShape; worker: MachineShape },
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
      const machine = machines?.[r.role] ?? backend.machineFor(r.types);
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
        spot: r.role === 'worker' && spotWorkers,
        diskSizeGib: r.disk,
        daskThreads: r.threads,
        daskMemoryLimit: r.memoryLimit === null ? null : String(r.memoryLimit).slice(0, 64),
      };
    }),
  );
}
