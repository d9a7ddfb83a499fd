import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type BatchJob,
  batchJobs,
  type ClusterProcess,
  type Instance,
  type RunTask,
  runTasks,
} from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { isoTimeOrNull } from '../../lib/time.js';
import { callingInstance, findInstance, instanceShouldRun } from '../clusters/index.js';
import type { claimedTaskSchema, runTaskAnswer, runTaskSchema, runTaskUpdate } from './facing-schemas.js';
import { jobToRun } from './job-cache.js';
import { hasUnfinished } from './lifecycle.js';

/**
 * Run tasks (the tasks of batch jobs) move pending → assigned (an instance claimed it) →
 * running → done | error; done and error never move again. Instances pull them: an instance
 * asking for a task gets the one it already holds, else claims the oldest pending one meant for
 * its role, with SKIP LOCKED so two instances never claim the same task. A job's `%N` limit is
 * kept by claiming under a lock of the job's row.
 */
const FINISHED = ['done', 'error'];

export function present(task: RunTask, instance: Instance | null): z.infer<typeof runTaskSchema> {
  return {
    id: task.id,
    batch_job_id: task.batchJobId,
    array_task_id: task.arrayTaskId,
    run_on: task.runOn,
    command: task.command,
    env: task.env,
    state: task.state,
    exit_code: task.exitCode,
    reason: task.reason,
    assigned_to: instance
      ? {
          instance_id: instance.id,
          backend_id: instance.backendId,
          name: instance.name,
          private_ip_address: instance.privateIpAddress,
        }
      : null,
    start: isoTimeOrNull(task.start),
    stop: isoTimeOrNull(task.stop),
  };
}

/** The task with what running it takes: the job's files, its variables and secrets, where and how long. */
export function claimed(
  deps: Pick<Deps, 'secrets'>,
  task: RunTask,
  instance: Instance,
  job: BatchJob | undefined,
): z.infer<typeof claimedTaskSchema> {
  const secrets: Record<string, string> = job?.secretEnvBox
    ? JSON.parse(deps.secrets.decrypt(job.secretEnvBox))
    : {};
  return {
    ...present(task, instance),
    env: { ...job?.envVars, ...task.env, ...secrets },
    user_files: job?.userFiles ?? [],
    workdir: job?.workdir ?? null,
    pipe_to_files: job?.pipeToFiles ?? false,
    timeout_seconds: job?.timeoutSeconds ?? null,
  };
}

/** `GET cluster_facing/pending-run-task/{backend_id}`: the task this instance should run next, or null. */
export async function claimRunTask(deps: Deps, clusterId: number, backendId: string) {
  return claimFor(deps, clusterId, await callingInstance(deps.db, clusterId, backendId), false);
}

/**
 * Claims the task the instance should run next for it (held first, else the oldest pending one
 * for its role). With `start`, the task is `running` from its claim on, as if the instance had
 * reported so (one call instead of two), and its job with it.
 */
export async function claimFor(
  deps: Deps,
  clusterId: number,
  { instance, process }: { instance: Instance; process: ClusterProcess },
  start: boolean,
): Promise<{ task: z.infer<typeof claimedTaskSchema> | null }> {
  const { db } = deps;
  if (!instanceShouldRun(instance, process)) return { task: null };
  const result = await db.transaction(async (tx) => {
    const [held] = await tx
      .select()
      .from(runTasks)
      // Starting claims (the combined call) also get back a task `running` on the instance: see claimUnlimited.
      .where(
        and(
          eq(runTasks.instanceId, instance.id),
          inArray(runTasks.state, start ? ['assigned', 'running'] : ['assigned']),
        ),
      )
      .orderBy(asc(runTasks.id))
      .limit(1);
    const next =
      held ??
      (
        await tx
          .select()
          .from(runTasks)
          .where(
            and(
              eq(runTasks.clusterId, clusterId),
              eq(runTasks.state, 'pending'),
              inArray(runTasks.runOn, [process.role, 'any']),
            ),
          )
          .orderBy(asc(runTasks.id))
          .limit(1)
          .for('update', { skipLocked: true })
      )[0];
    if (!next) return null;
    if (!held && next.batchJobId !== null && !(await mayStartAnother(tx, next.batchJobId))) return null;
    if (held && !start) return held;
    const now = new Date();
    const [task] = await tx
      .update(runTasks)
      .set({
        state: start ? 'running' : 'assigned',
        instanceId: instance.id,
        updated: now,
        ...(start && { start: now }),
      })
      .where(eq(runTasks.id, next.id))
      .returning();
    if (start && next.batchJobId !== null) await markJobRunning(tx, next.batchJobId, now);
    return task!;
  });
  if (!result) return { task: null };
  const job = result.batchJobId ? await jobToRun(db, result.batchJobId) : undefined;
  return { task: claimed(deps, result, instance, job) };
}

/** A job with a task that runs (or ran) is running, whatever its loop has seen so far. */
async function markJobRunning(tx: Db, jobId: number, started: Date): Promise<void> {
  await tx
    .update(batchJobs)
    .set({ state: 'running', started })
    .where(and(eq(batchJobs.id, jobId), eq(batchJobs.state, 'pending')));
}

/** Whether the job's `%N` limit lets one more of its tasks start (holding the job's row until commit). */
async function mayStartAnother(tx: Db, jobId: number): Promise<boolean> {
  const [job] = await tx
    .select({ limit: batchJobs.maxConcurrent })
    .from(batchJobs)
    .where(eq(batchJobs.id, jobId));
  if (!job || job.limit === null) return true;
  // Claims of the job's tasks queue on its row, so that two never both take the last free place.
  await tx.select({ id: batchJobs.id }).from(batchJobs).where(eq(batchJobs.id, jobId)).for('update');
  const [busy] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(runTasks)
    .where(and(eq(runTasks.batchJobId, jobId), inArray(runTasks.state, ['assigned', 'running'])));
  return (busy?.n ?? 0) < job.limit;
}

/** `GET cluster_facing/pending-run-tasks/{backend_id}`: the tasks this instance holds and has not started. */
export async function heldRunTasks(db: Db, clusterId: number, backendId: string) {
  const { instance } = await callingInstance(db, clusterId, backendId);
  const rows = await db
    .select()
    .from(runTasks)
    .where(and(eq(runTasks.instanceId, instance.id), eq(runTasks.state, 'assigned')))
    .orderBy(asc(runTasks.id))
    .limit(1000);
  return { tasks: rows.map((t) => present(t, instance)) };
}

/**
 * `POST cluster_facing/run-task/{task_id}`: the state of a task, as the instance running it
 * reports. A task that ended meanwhile (cancelled, timed out) answers `stop_task` to a `running`
 * report, so the instance stops its command.
 */
export async function updateRunTask(
  deps: Pick<Deps, 'db' | 'loops'>,
  clusterId: number,
  taskId: number,
  body: z.infer<typeof runTaskUpdate>,
  calling?: Instance,
): Promise<z.infer<typeof runTaskAnswer>> {
  const { db } = deps;
  const reporter =
    calling ?? (body.backend_id ? (await callingInstance(db, clusterId, body.backend_id)).instance : null);
  const task = await db.transaction(async (tx) => {
    const [task] = await tx
      .select()
      .from(runTasks)
      .where(and(eq(runTasks.id, taskId), eq(runTasks.clusterId, clusterId)))
      .for('update');
    if (!task) throw notFound('Run task not found.');
    if (task.state === body.state) return task;
    if (FINISHED.includes(task.state)) {
      if (body.state === 'running') return task;
      throw conflict(`Run task ${task.id} is already ${task.state}.`, 'RUN_TASK_FINISHED');
    }
    if (reporter && task.instanceId !== null && task.instanceId !== reporter.id)
      throw conflict(`Run task ${task.id} is assigned to another instance.`, 'RUN_TASK_ASSIGNED');
    const now = new Date();
    const [updated] = await tx
      .update(runTasks)
      .set({
        state: body.state,
        instanceId: task.instanceId ?? reporter?.id ?? null,
        reason: body.reason ?? task.reason,
        ...(body.exit_code !== undefined && { exitCode: body.exit_code }),
        ...(body.state === 'running' && { start: now }),
        ...(FINISHED.includes(body.state) && { stop: now, start: task.start ?? now }),
        updated: now,
      })
      .where(eq(runTasks.id, task.id))
      .returning();
    if (task.batchJobId !== null && (body.state === 'running' || FINISHED.includes(body.state)))
      await markJobRunning(tx, task.batchJobId, updated!.start ?? now);
    return updated!;
  });
  // Once the job's last task has ended, the job loop looks at once (else at its next round).
  if (
    task.batchJobId !== null &&
    FINISHED.includes(body.state) &&
    !(await hasUnfinished(db, task.batchJobId))
  ) {
    await db.update(batchJobs).set({ reconcileAt: new Date() }).where(eq(batchJobs.id, task.batchJobId));
    deps.loops.wake('batch-jobs');
  }
  const instance =
    task.instanceId === null
      ? null
      : task.instanceId === reporter?.id
        ? reporter
        : await findInstance(db, task.instanceId);
  return {
    ...present(task, instance),
    stop_task: FINISHED.includes(task.state) && body.state === 'running',
  };
}
