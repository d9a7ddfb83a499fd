import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BatchJob, batchJobs } from '../../db/schema/index.js';

/**
 * What claiming a task reads of its job, kept in memory per database: a job's command, files,
 * variables and limits never change once written, and a job that left `pending` never returns
 * to it. A claim of a job's 10,000th task reads neither again.
 */
interface Known {
  jobs: Map<number, BatchJob>;
  /** Jobs known to be past `pending`. */
  started: Set<number>;
}

const KEEP = 256;
const known = new WeakMap<Db, Known>();

function of(db: Db): Known {
  let k = known.get(db);
  if (!k) {
    k = { jobs: new Map(), started: new Set() };
    known.set(db, k);
  }
  return k;
}

/** The job a claimed task belongs to (the parts that never change are what is read of it). */
export async function jobToRun(db: Db, jobId: number): Promise<BatchJob | undefined> {
  const k = of(db);
  const hit = k.jobs.get(jobId);
  if (hit) return hit;
  const [job] = await db.select().from(batchJobs).where(eq(batchJobs.id, jobId));
  if (!job) return undefined;
  if (k.jobs.size >= KEEP) k.jobs.delete(k.jobs.keys().next().value!);
  k.jobs.set(jobId, job);
  return job;
}

/** A job with a task that runs (or ran) is running, whatever its loop has seen so far. */
export async function markJobRunning(db: Db, jobId: number, started: Date): Promise<void> {
  const k = of(db);
  if (k.started.has(jobId)) return;
  await db
    .update(batchJobs)
    .set({ state: 'running', started })
    .where(and(eq(batchJobs.id, jobId), eq(batchJobs.state, 'pending')));
  if (k.started.size >= KEEP) k.started.delete(k.started.values().next().value!);
  k.started.add(jobId);
}
