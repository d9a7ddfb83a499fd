import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BatchJob, type BatchJobState, batchJobs, runTasks } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { requestStop } from '../clusters/index.js';

/** Tasks still to run or running. */
export const UNFINISHED_TASKS = ['pending', 'assigned', 'running'] as const;
export const FINISHED_JOBS: BatchJobState[] = ['done', 'failed', 'cancelled'];

/**
 * When the job's first task started (null before any did), for an update of `batch_jobs`: a job
 * started then at the latest, whichever of its loop and a task's claim marked it running first.
 */
export const firstTaskStart = sql`(select min(${runTasks.start}) from ${runTasks} where ${runTasks.batchJobId} = ${batchJobs.id})`;

export interface TaskCounts {
  total: number;
  succeeded: number;
  failed: number;
  running: number;
  unfinished: number;
}

/** How a job's tasks stand, per job. */
export async function taskCounts(db: Db, jobIds: number[]): Promise<Map<number, TaskCounts>> {
  const counts = new Map<number, TaskCounts>();
  if (jobIds.length === 0) return counts;
  const rows = await db
    .select({
      jobId: runTasks.batchJobId,
      total: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${runTasks.state} = 'done'))::int`,
      failed: sql<number>`(count(*) filter (where ${runTasks.state} = 'error'))::int`,
      running: sql<number>`(count(*) filter (where ${runTasks.state} in ('assigned', 'running')))::int`,
      unfinished: sql<number>`(count(*) filter (where ${runTasks.state} in ('pending', 'assigned', 'running')))::int`,
    })
    .from(runTasks)
    .where(inArray(runTasks.batchJobId, jobIds))
    .groupBy(runTasks.batchJobId);
  for (const { jobId, ...c } of rows) counts.set(jobId!, c);
  return counts;
}

/** Whether the job has a task still to run or running (read from an index of those alone). */
export async function hasUnfinished(db: Db, jobId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: runTasks.id })
    .from(runTasks)
    .where(and(eq(runTasks.batchJobId, jobId), sql`${runTasks.state} in ('pending', 'assigned', 'running')`))
    .limit(1);
  return row !== undefined;
}

/** Whether any of the job's tasks has left `pending` (claimed, running or ended). */
export async function anyStarted(db: Db, jobId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: runTasks.id })
    .from(runTasks)
    .where(and(eq(runTasks.batchJobId, jobId), sql`${runTasks.state} <> 'pending'`))
    .limit(1);
  return row !== undefined;
}

/**
 * Ends a job: what still waits or runs ends as `error` with the reason (an instance running one
 * learns it at its next report and stops it), the counts are kept and the job's cluster stops.
 * Answers false when the job had ended already.
 */
export async function finishJob(
  deps: Pick<Deps, 'db' | 'loops'>,
  job: BatchJob,
  state: 'done' | 'failed' | 'cancelled',
  reason: string,
  taskReason = reason,
): Promise<boolean> {
  const ended = await deps.db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(batchJobs)
      .set({
        state,
        reason,
        completed: now,
        reconcileAt: null,
        // least() passes over nulls.
        started: sql`least(${batchJobs.started}, ${firstTaskStart})`,
      })
      .where(and(eq(batchJobs.id, job.id), inArray(batchJobs.state, ['pending', 'running'])))
      .returning();
    if (!row) return false;
    await tx
      .update(runTasks)
      .set({ state: 'error', reason: taskReason, stop: now, updated: now })
      .where(and(eq(runTasks.batchJobId, job.id), inArray(runTasks.state, [...UNFINISHED_TASKS])));
    const counts = (await taskCounts(tx, [job.id])).get(job.id);
    await tx
      .update(batchJobs)
      .set({ nSucceeded: counts?.succeeded ?? 0, nFailed: counts?.failed ?? 0 })
      .where(eq(batchJobs.id, job.id));
    return true;
  });
  if (ended && job.clusterId !== null)
    await requestStop(deps, job.clusterId, 'stopped', `Batch job ${job.id} ${describeEnd(state)}`);
  return ended;
}

const describeEnd = (state: 'done' | 'failed' | 'cancelled') =>
  state === 'done' ? 'finished' : state === 'failed' ? 'failed' : 'was cancelled';

/** "1 h 2 min", "90 s": a duration as people read it. */
export function humanSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 120) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}
