import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  batchJobs,
  type ClusterProcess,
  type Instance,
  type RunTask,
  runTasks,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { z } from '../../http/zod.js';
import { callingInstance, instanceShouldRun } from '../clusters/index.js';
import type { claimedTaskSchema } from './facing-schemas.js';
import { jobToRun, markJobRunning } from './job-cache.js';
import { claimed } from './run-tasks.js';

type Claimed = z.infer<typeof claimedTaskSchema>;

/** Thrown inside a claim's transaction to undo it: the job's `%N` limit is full. */
class Full extends Error {}

/**
 * Claims the task an instance runs next: the one it holds, else the oldest pending one for its
 * role (SKIP LOCKED, so two instances never claim the same task). `start`: the task is `running`
 * from its claim on, as the combined call wants (and a task already `running` on the instance,
 * whose claim it never heard the answer to, comes back to it); else it is `assigned`.
 *
 * One statement claims; a job with a `%N` limit is then checked under a lock of its row in the
 * same transaction (claims of its tasks queue there, so two never both take its last free
 * place) and the claim undone when the limit is full: the instance asks again later.
 */
export async function claimNext(
  deps: Deps,
  clusterId: number,
  { instance, process }: { instance: Instance; process: ClusterProcess },
  start: boolean,
): Promise<Claimed | null> {
  if (!instanceShouldRun(instance, process)) return null;
  const now = new Date();
  const heldStates = start ? sql.raw(`('assigned', 'running')`) : sql.raw(`('assigned')`);
  const held = sql`(select h.id from ${runTasks} h where h.instance_id = ${instance.id} and h.state in ${heldStates} order by h.id limit 1)`;
  const pending = sql`(select p.id from ${runTasks} p where p.cluster_id = ${clusterId} and p.state = 'pending' and p.run_on in (${process.role}, 'any') order by p.id limit 1 for update skip locked)`;
  let task: RunTask | undefined;
  try {
    task = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(runTasks)
        .set({
          state: start ? 'running' : 'assigned',
          instanceId: instance.id,
          updated: now,
          ...(start && { start: sql`coalesce(${runTasks.start}, ${now.toISOString()}::timestamptz)` }),
        })
        .where(and(sql`${runTasks.id} = coalesce(${held}, ${pending})`, claimable(instance, start)))
        .returning({
          ...getTableColumns(runTasks),
          limit: sql<
            number | null
          >`(select j.max_concurrent from ${batchJobs} j where j.id = ${runTasks.batchJobId})`,
        });
      if (!row) return undefined;
      const { limit, ...claimedRow } = row;
      if (limit !== null && claimedRow.batchJobId !== null && (await busy(tx, claimedRow.batchJobId)) > limit)
        throw new Full();
      return claimedRow;
    });
  } catch (e) {
    if (e instanceof Full) return null;
    throw e;
  }
  if (!task) return null;
  const job = task.batchJobId === null ? undefined : await jobToRun(deps.db, task.batchJobId);
  if (start && task.batchJobId !== null) await markJobRunning(deps.db, task.batchJobId, now);
  return claimed(deps, task, instance, job);
}

/** Which states a claim may take a task from: pending or held, or (starting) `running` on this instance. */
function claimable(instance: Instance, start: boolean) {
  return start
    ? sql`(${runTasks.state} in ('pending', 'assigned') or (${runTasks.state} = 'running' and ${runTasks.instanceId} = ${instance.id}))`
    : sql`${runTasks.state} in ('pending', 'assigned')`;
}

/** How many of a job's tasks are assigned or running, counted once its row is locked. */
async function busy(tx: Db, jobId: number): Promise<number> {
  await tx.select({ id: batchJobs.id }).from(batchJobs).where(eq(batchJobs.id, jobId)).for('update');
  const [n] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(runTasks)
    .where(and(eq(runTasks.batchJobId, jobId), inArray(runTasks.state, ['assigned', 'running'])));
  return n?.n ?? 0;
}

/** `GET cluster_facing/pending-run-task/{backend_id}`: the task this instance should run next (`assigned`), or null. */
export async function claimRunTask(deps: Deps, clusterId: number, backendId: string) {
  return {
    task: await claimNext(deps, clusterId, await callingInstance(deps.db, clusterId, backendId), false),
  };
}
