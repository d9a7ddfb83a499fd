import { and, eq, getTableColumns, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { batchJobs, type Instance, type RunTask, runTasks } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { callingInstance, findInstance } from '../clusters/index.js';
import type { runTaskAnswer, runTaskUpdate } from './facing-schemas.js';
import { markJobRunning } from './job-cache.js';
import { present } from './run-tasks.js';

type Answer = z.infer<typeof runTaskAnswer>;
const FINISHED: RunTask['state'][] = ['done', 'error'];
/** A task's states that leave something of its job to run or running. */
const UNFINISHED = sql.raw(`('pending', 'assigned', 'running')`);

/**
 * `POST cluster_facing/run-task/{task_id}` (and the report of the combined call): the state of a
 * task, as the instance running it reports. Run tasks move pending → assigned → running → done |
 * error; done and error never move again (409). A `running` report of a task that ended meanwhile
 * (cancelled, timed out) answers `stop_task`, so the instance stops its command; a task another
 * instance holds is not this one's to report (409).
 *
 * One statement moves the task when the move is allowed (the usual case); only a refused move
 * reads the task to say why. Once a job's last task has ended, the job's loop looks at once.
 */
export async function reportTask(
  deps: Pick<Deps, 'db' | 'loops'>,
  clusterId: number,
  taskId: number,
  body: z.infer<typeof runTaskUpdate>,
  calling?: Instance,
): Promise<Answer> {
  const { db } = deps;
  const reporter =
    calling ?? (body.backend_id ? (await callingInstance(db, clusterId, body.backend_id)).instance : null);
  const now = new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  const [moved] = await db
    .update(runTasks)
    .set({
      state: body.state,
      instanceId: sql`coalesce(${runTasks.instanceId}, ${reporter?.id ?? null}::int)`,
      ...(body.reason !== undefined && { reason: body.reason }),
      ...(body.exit_code !== undefined && { exitCode: body.exit_code }),
      ...(body.state === 'running'
        ? { start: now }
        : { stop: now, start: sql`coalesce(${runTasks.start}, ${at})` }),
      updated: now,
    })
    .where(
      and(
        eq(runTasks.id, taskId),
        eq(runTasks.clusterId, clusterId),
        notInArray(runTasks.state, FINISHED),
        ne(runTasks.state, body.state),
        reporter ? or(isNull(runTasks.instanceId), eq(runTasks.instanceId, reporter.id)) : undefined,
      ),
    )
    .returning({
      ...getTableColumns(runTasks),
      // The snapshot before this UPDATE: the task itself still counts as unfinished there.
      othersLeft: sql<boolean>`exists (select 1 from ${runTasks} o where o.batch_job_id = ${runTasks.batchJobId} and o.state in ${UNFINISHED} and o.id <> ${runTasks.id})`,
    });
  if (!moved) {
    const answer = await refusal(deps, clusterId, taskId, body.state, reporter);
    // Nothing refuses the move: the task changed between the two statements; report again.
    return answer ?? reportTask(deps, clusterId, taskId, body, reporter ?? undefined);
  }
  const { othersLeft, ...task } = moved;
  if (task.batchJobId !== null) {
    await markJobRunning(db, task.batchJobId, task.start ?? now);
    if (FINISHED.includes(task.state) && !othersLeft) {
      await db.update(batchJobs).set({ reconcileAt: now }).where(eq(batchJobs.id, task.batchJobId));
      deps.loops.wake('batch-jobs');
    }
  }
  return { ...present(task, await holder(deps, task, reporter)), stop_task: false };
}

/**
 * Why a report moved nothing: the task as it stands (same state, or ended: `stop_task`), or the
 * refusal; null when nothing refuses the move any more.
 */
async function refusal(
  deps: Pick<Deps, 'db'>,
  clusterId: number,
  taskId: number,
  state: string,
  reporter: Instance | null,
): Promise<Answer | null> {
  const [task] = await deps.db
    .select()
    .from(runTasks)
    .where(and(eq(runTasks.id, taskId), eq(runTasks.clusterId, clusterId)));
  if (!task) throw notFound('Run task not found.');
  const ended = FINISHED.includes(task.state);
  if (ended && state !== 'running' && task.state !== state)
    throw conflict(`Run task ${task.id} is already ${task.state}.`, 'RUN_TASK_FINISHED');
  if (
    !ended &&
    task.state !== state &&
    reporter &&
    task.instanceId !== null &&
    task.instanceId !== reporter.id
  )
    throw conflict(`Run task ${task.id} is assigned to another instance.`, 'RUN_TASK_ASSIGNED');
  if (!ended && task.state !== state) return null;
  return { ...present(task, await holder(deps, task, reporter)), stop_task: ended && state === 'running' };
}

async function holder(deps: Pick<Deps, 'db'>, task: RunTask, reporter: Instance | null) {
  if (task.instanceId === null) return null;
  return task.instanceId === reporter?.id ? reporter : findInstance(deps.db, task.instanceId);
}
