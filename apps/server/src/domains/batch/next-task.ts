import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { batchJobs, type ClusterProcess, type Instance, runTasks } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { callingInstance, instanceShouldRun } from '../clusters/index.js';
import type { nextTaskAnswer, nextTaskRequest } from './facing-schemas.js';
import { jobToRun, markJobRunning } from './job-cache.js';
import { claimed, claimFor, present, updateRunTask } from './run-tasks.js';

type Answer = z.infer<typeof nextTaskAnswer>;
type Report = NonNullable<z.infer<typeof nextTaskRequest>['report']>;

/**
 * `POST cluster_facing/next-run-task/{backend_id}`: the end of the instance's last task (if any)
 * and the claim of its next one, already `running`, in one call: one round trip per task where
 * the separate calls take three (claim, start, end). A report the control plane refuses (the task
 * ended meanwhile, or another instance holds it) answers `report: null` and the claim goes on.
 *
 * The usual case takes three statements: the instance, the end (one UPDATE, which also says
 * whether the job has tasks left) and the claim (one UPDATE that picks the held or the oldest
 * pending task). Anything else (a task not `running` on this instance, a job with a `%N` limit,
 * nothing to claim) goes the general way (`updateRunTask`, `claimFor`), which answers the same.
 */
export async function nextRunTask(
  deps: Deps,
  clusterId: number,
  backendId: string,
  body: z.infer<typeof nextTaskRequest>,
): Promise<Answer> {
  const calling = await callingInstance(deps.db, clusterId, backendId);
  let report: Answer['report'] = null;
  if (body.report) {
    report = await endRunning(deps, clusterId, body.report, calling.instance);
    if (!report) {
      const { task_id, ...update } = body.report;
      try {
        report = await updateRunTask(deps, clusterId, task_id, update, calling.instance);
      } catch (e) {
        if (!(e instanceof ApiError && e.statusCode === 409)) throw e;
      }
    }
  }
  const task = await claimUnlimited(deps, clusterId, calling);
  return { report, task: task ?? (await claimFor(deps, clusterId, calling, true)).task };
}

/** A task's state that leaves nothing of its job to run or running. */
const UNFINISHED = sql.raw(`('pending', 'assigned', 'running')`);

/**
 * The end of a task `running` on this instance, in one statement; null when the task is anything
 * else (the general way then says what). Once the job's last task has ended, its loop looks at once.
 */
export async function endRunning(
  deps: Pick<Deps, 'db' | 'loops'>,
  clusterId: number,
  report: Report,
  instance: Instance,
): Promise<Answer['report']> {
  const now = new Date();
  const [ended] = await deps.db
    .update(runTasks)
    .set({
      state: report.state,
      ...(report.exit_code !== undefined && { exitCode: report.exit_code }),
      ...(report.reason !== undefined && { reason: report.reason }),
      stop: now,
      updated: now,
    })
    .where(
      and(
        eq(runTasks.id, report.task_id),
        eq(runTasks.clusterId, clusterId),
        eq(runTasks.instanceId, instance.id),
        eq(runTasks.state, 'running'),
      ),
    )
    .returning({
      ...getTableColumns(runTasks),
      // The snapshot before this UPDATE: the task itself still counts as unfinished there.
      othersLeft: sql<boolean>`exists (select 1 from ${runTasks} o where o.batch_job_id = ${runTasks.batchJobId} and o.state in ${UNFINISHED} and o.id <> ${runTasks.id})`,
    });
  if (!ended) return null;
  const { othersLeft, ...task } = ended;
  if (task.batchJobId !== null && !othersLeft) {
    await deps.db.update(batchJobs).set({ reconcileAt: new Date() }).where(eq(batchJobs.id, task.batchJobId));
    deps.loops.wake('batch-jobs');
  }
  return { ...present(task, instance), stop_task: false };
}

/**
 * Claims the task this instance should run next in one statement (the one it holds, else the
 * oldest pending one for its role, SKIP LOCKED), `running` from now; null when there is none or
 * it belongs to a job with a `%N` limit (the general way, which keeps the limit, then claims).
 */
export async function claimUnlimited(
  deps: Deps,
  clusterId: number,
  { instance, process }: { instance: Instance; process: ClusterProcess },
): Promise<Answer['task']> {
  if (!instanceShouldRun(instance, process)) return null;
  const now = new Date();
  // Held: assigned to this instance, or `running` on it although it asks for its next task (it
  // runs one at a time): a claim it never heard the answer to (the request failed after the
  // commit), which it gets again rather than leaving the task running on nobody.
  const held = sql`(select h.id from ${runTasks} h where h.instance_id = ${instance.id} and h.state in ('assigned', 'running') order by h.id limit 1)`;
  const pending = sql`(select p.id from ${runTasks} p where p.cluster_id = ${clusterId} and p.state = 'pending' and p.run_on in (${process.role}, 'any') order by p.id limit 1 for update skip locked)`;
  const [task] = await deps.db
    .update(runTasks)
    .set({ state: 'running', instanceId: instance.id, updated: now, start: now })
    .where(
      and(
        sql`${runTasks.id} = coalesce(${held}, ${pending})`,
        sql`(${runTasks.state} in ('pending', 'assigned') or (${runTasks.state} = 'running' and ${runTasks.instanceId} = ${instance.id}))`,
        sql`not exists (select 1 from ${batchJobs} j where j.id = ${runTasks.batchJobId} and j.max_concurrent is not null)`,
      ),
    )
    .returning();
  if (!task) return null;
  const job = task.batchJobId === null ? undefined : await jobToRun(deps.db, task.batchJobId);
  if (job && task.batchJobId !== null) await markJobRunning(deps.db, task.batchJobId, now);
  return claimed(deps, task, instance, job);
}
