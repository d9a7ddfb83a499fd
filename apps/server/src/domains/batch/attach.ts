import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { batchJobs, runTasks } from '../../db/schema/index.js';
import { conflict, fieldError } from '../../http/errors.js';

/**
 * A batch cluster takes on its jobs (`batch_job_ids` of the create call): each must be of the
 * cluster's workspace and still without a cluster, and one whose tasks run in a container
 * (`run_in_container`) needs a cluster whose environment is a container image (the tasks run where
 * its instances' agent runs: inside the image). Runs in the cluster's create transaction.
 */
export async function attachJobs(
  tx: Db,
  workspace: { id: number; name: string },
  clusterId: number,
  jobIds: number[],
  cluster: { inContainer: boolean } = { inContainer: false },
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
    if (job.runInContainer && !cluster.inContainer)
      throw fieldError(
        'env_name',
        `Batch job ${jobId} runs its tasks in a container (run_in_container): give its cluster the environment of a container image ` +
          '(env_name; `cumulus env create --container IMAGE NAME`), built, as `cumulus batch run --container IMAGE` does.',
      );
  }
  await tx.update(batchJobs).set({ clusterId, reconcileAt: new Date() }).where(inArray(batchJobs.id, jobIds));
  await tx.update(runTasks).set({ clusterId }).where(inArray(runTasks.batchJobId, jobIds));
}
