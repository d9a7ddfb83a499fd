import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { batchJobs, runTasks } from '../../db/schema/index.js';
import { conflict, fieldError } from '../../http/errors.js';

/**
 * A batch cluster takes on its jobs (`batch_job_ids` of the create call): each must be of the
 * cluster's workspace and still without a cluster. Runs in the cluster's create transaction.
 */
export async function attachJobs(
  tx: Db,
  workspace: { id: number; name: string },
  clusterId: number,
  jobIds: number[],
) {
  const jobs = await tx
    .select()
    .from(batchJobs)
    .where(and(inArray(batchJobs.id, jobIds), eq(batchJobs.workspaceId, workspace.id)))
    .for('update');
  for (const jobId of jobIds) {
    const job = jobs.find((j) => j.id === jobId);
    if (!job) throw fieldError('batch_job_ids', `Batch job ${jobId} was not found in ${workspace.name}.`);
    if (job.clusterId !== null || job.state !== 'pending')
      throw conflict(`Batch job ${jobId} has a cluster already.`, 'JOB_HAS_CLUSTER');
  }
  await tx.update(batchJobs).set({ clusterId, reconcileAt: new Date() }).where(inArray(batchJobs.id, jobIds));
  await tx.update(runTasks).set({ clusterId }).where(inArray(runTasks.batchJobId, jobIds));
}
