import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BatchJob, type Instance, type RunTask, runTasks } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { z } from '../../http/zod.js';
import { isoTimeOrNull } from '../../lib/time.js';
import { callingInstance } from '../clusters/index.js';
import type { claimedTaskSchema, runTaskSchema } from './facing-schemas.js';

/**
 * Run tasks (the tasks of batch jobs) move pending → assigned (an instance claimed it) →
 * running → done | error; done and error never move again. Instances pull them: claims in
 * claim.ts, reports in report.ts, the two in one call in next-task.ts; here is how a task reads.
 */
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
