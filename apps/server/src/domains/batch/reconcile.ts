import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { type BatchJob, batchJobs, runTasks } from '../../db/schema/index.js';
import type { Loops } from '../../deps.js';
import { type LoopDomain, loopRows } from '../../loops/runner.js';
import { findCluster, instanceView } from '../clusters/index.js';
import {
  anyStarted,
  finishJob,
  firstTaskStart,
  hasUnfinished,
  humanSeconds,
  taskCounts,
  UNFINISHED_TASKS,
} from './lifecycle.js';
import { UNCLAIMED_JOB_MS } from './service.js';

export interface JobLoopContext {
  db: Db;
  loops: Loops;
  log: FastifyBaseLogger;
}

/** While a job runs, the loop looks at it this often (a finished task wakes it sooner). */
const LOOK_MS = 1_000;

/**
 * Batch jobs as a domain of the loop runner. A pending job waits for its cluster to be ready; a
 * running one has the tasks of lost instances run again (up to its `max_retries`), ends at its
 * timeout, fails when its cluster ends under it, and is done (or failed) once every task has
 * finished — its cluster then stops.
 */
export function jobDomain(ctx: JobLoopContext): LoopDomain {
  return {
    name: 'batch-jobs',
    rows: { ...loopRows(batchJobs), where: sql`${batchJobs.state} in ('pending', 'running')` },
    reconcile: (id) => reconcileJob(ctx, id),
    backoff: { initialMs: 2_000, capMs: 60_000 },
    intervalMs: 1_000,
    concurrency: 4,
  };
}

const after = (ms: number) => new Date(Date.now() + ms);

async function reconcileJob(ctx: JobLoopContext, jobId: number): Promise<Date | null> {
  const { db } = ctx;
  const [job] = await db.select().from(batchJobs).where(eq(batchJobs.id, jobId));
  if (!job || (job.state !== 'pending' && job.state !== 'running')) return null;
  if (job.clusterId === null) {
    const waited = Date.now() - job.created.getTime();
    if (waited < UNCLAIMED_JOB_MS) return after(UNCLAIMED_JOB_MS - waited);
    await finishJob(
      ctx,
      job,
      'failed',
      `No cluster was started for it within ${humanSeconds(UNCLAIMED_JOB_MS / 1000)}.`,
    );
    return null;
  }
  const cluster = await findCluster(db, job.clusterId);
  if (!cluster) {
    await finishJob(ctx, job, 'failed', 'Its cluster was deleted.');
    return null;
  }

  if (job.state === 'running' && job.timeoutSeconds !== null && job.started) {
    const ran = (Date.now() - job.started.getTime()) / 1000;
    if (ran >= job.timeoutSeconds) {
      const why = `Timed out after ${humanSeconds(job.timeoutSeconds)}`;
      await finishJob(ctx, job, 'failed', why, 'timeout');
      return null;
    }
  }

  await retryLostTasks(db, job);
  // Each round reads the job's unfinished tasks only (an index of them): its finished ones are
  // counted once, when it ends.
  if (!(await hasUnfinished(db, job.id))) {
    const failed = (await taskCounts(db, [job.id])).get(job.id)?.failed ?? 0;
    await finishJob(
      ctx,
      job,
      failed ? 'failed' : 'done',
      failed ? await failureSummary(db, job, failed) : '',
    );
    return null;
  }

  const clusterEnded =
    cluster.state === 'stopped' || cluster.state === 'error' || cluster.desiredState !== 'ready';
  if (clusterEnded) {
    const why = `Its cluster ${cluster.name} ${cluster.state === 'error' ? 'failed' : 'stopped'}${cluster.stateReason ? `: ${cluster.stateReason}` : ''}`;
    await finishJob(ctx, job, 'failed', why);
    return null;
  }

  if (job.state === 'pending' && (cluster.state === 'ready' || (await anyStarted(db, job.id))))
    await db
      .update(batchJobs)
      .set({ state: 'running', started: sql`least(now(), ${firstTaskStart})` })
      .where(and(eq(batchJobs.id, job.id), eq(batchJobs.state, 'pending')));
  return after(LOOK_MS);
}

/** How many failed tasks a job's reason names; the others are counted ("and 3 more"). */
const NAMED_FAILURES = 5;

/**
 * "1 of 20 tasks failed: task 7 (exit code 3)": which tasks failed (array index), and their exit
 * code, or their error when they never exited (an instance lost, a timeout).
 */
export async function failureSummary(db: Db, job: Pick<BatchJob, 'id' | 'nTasks'>, failed: number) {
  const rows = await db
    .select({ index: runTasks.arrayTaskId, exitCode: runTasks.exitCode, reason: runTasks.reason })
    .from(runTasks)
    .where(and(eq(runTasks.batchJobId, job.id), eq(runTasks.state, 'error')))
    .orderBy(runTasks.arrayTaskId)
    .limit(NAMED_FAILURES);
  const named = rows.map(
    (t) =>
      `task ${t.index} (${t.exitCode !== null ? `exit code ${t.exitCode}` : t.reason.trim() || 'no exit code'})`,
  );
  const more = failed > named.length ? `, and ${failed - named.length} more` : '';
  const head = `${failed} of ${job.nTasks} task${job.nTasks === 1 ? '' : 's'} failed`;
  return named.length ? `${head}: ${named.join(', ')}${more}` : head;
}

/**
 * Tasks held by instances that ended (or are ending) without finishing them run again on another
 * instance, up to the job's `max_retries`; after that they fail, naming the instance.
 */
async function retryLostTasks(db: Db, job: BatchJob): Promise<void> {
  const lost = await db
    .select({ task: runTasks, instanceName: instanceView.name, instanceState: instanceView.state })
    .from(runTasks)
    .leftJoin(instanceView, eq(instanceView.id, runTasks.instanceId))
    .where(
      and(
        eq(runTasks.batchJobId, job.id),
        inArray(runTasks.state, ['assigned', 'running']),
        or(isNull(runTasks.instanceId), inArray(instanceView.state, ['stopping', 'stopped', 'error'])),
      ),
    );
  const now = new Date();
  for (const { task, instanceName, instanceState } of lost) {
    const what = `Instance ${instanceName ?? '(gone)'} ${instanceState === 'error' ? 'failed' : 'stopped'} while it ran this task`;
    const again = task.retries < job.maxRetries;
    await db
      .update(runTasks)
      .set(
        again
          ? {
              state: 'pending',
              instanceId: null,
              retries: task.retries + 1,
              start: null,
              reason: `${what}; running it again (retry ${task.retries + 1} of ${job.maxRetries})`,
              updated: now,
            }
          : { state: 'error', reason: what, stop: now, updated: now },
      )
      .where(
        and(
          eq(runTasks.id, task.id),
          inArray(runTasks.state, [...UNFINISHED_TASKS]),
          lt(runTasks.updated, now),
        ),
      );
  }
}
