import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { batchJobs } from '../../db/schema/index.js';

/** A batch cluster's instances run its jobs' tasks, after the jobs' host setup scripts. */
export async function batchSetup(db: Db, clusterId: number) {
  const jobs = await db
    .select({ id: batchJobs.id, hostSetup: batchJobs.hostSetup })
    .from(batchJobs)
    .where(eq(batchJobs.clusterId, clusterId))
    .orderBy(asc(batchJobs.id));
  if (jobs.length === 0) return null;
  return {
    job_ids: jobs.map((j) => j.id),
    host_setup: jobs.flatMap((j) => (j.hostSetup ? [j.hostSetup] : [])),
  };
}
