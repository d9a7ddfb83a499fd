import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type Cluster,
  type ClusterProcess,
  clusterProcesses,
  type Instance,
  instances,
} from '../../db/schema/index.js';
import { randomHex } from '../../lib/crypto.js';
import { setInstanceState, setProcessState } from './transitions.js';

/** `<cluster name>-worker-<unique id>`, the naming clients rely on to scale down by suffix. */
export const workerName = (clusterName: string) => `${clusterName}-worker-${randomHex(5)}`;
export const schedulerName = (clusterName: string) => `${clusterName}-scheduler`;

/**
 * A scheduler or worker with the instance it will run on (queued; the control loop launches it).
 * The backend id is chosen here, before any launch, so launching can be retried and adopted.
 */
export async function addProcess(
  db: Db,
  cluster: Pick<Cluster, 'id' | 'name'>,
  backendType: string,
  role: 'scheduler' | 'worker',
): Promise<ClusterProcess> {
  const name = role === 'scheduler' ? schedulerName(cluster.name) : workerName(cluster.name);
  return db.transaction(async (tx) => {
    const [process] = await tx
      .insert(clusterProcesses)
      .values({ clusterId: cluster.id, role, name })
      .returning();
    await tx.insert(instances).values({
      clusterId: cluster.id,
      processId: process!.id,
      role,
      name,
      backendType,
      backendId: `${backendType === 'in_process' ? 'local' : backendType}-${randomHex(8)}`,
    });
    return process!;
  });
}

/** Asks a process and its instance to stop (the control loop stops the instance). */
export async function retireProcess(
  db: Db,
  process: ClusterProcess,
  instance: Instance | undefined,
  reason: string,
) {
  await db
    .update(clusterProcesses)
    .set({ desiredState: 'stopped' })
    .where(eq(clusterProcesses.id, process.id));
  await setProcessState(db, process, 'stopping', reason);
  if (instance) {
    await db.update(instances).set({ desiredState: 'stopped' }).where(eq(instances.id, instance.id));
    await setInstanceState(db, instance, 'stopping', reason);
  }
}
