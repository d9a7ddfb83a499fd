import type { Db } from '../../db/client.js';
import { runTasks } from '../../db/schema/index.js';
import type { JobSpec } from './schemas.js';

/** Where each task runs: the scheduler for ids in `scheduler_task_array` (or all, on the scheduler only). */
function placement(spec: JobSpec): (taskId: number) => 'scheduler' | 'worker' | 'any' {
  const onScheduler = new Set(spec.scheduler_task_array ?? []);
  const everywhere =
    spec.run_on_scheduler === true ? (spec.run_on_workers === false ? 'scheduler' : 'any') : 'worker';
  return (taskId) => (onScheduler.has(taskId) ? 'scheduler' : everywhere);
}

/** The array task ids of a job: `task_array` as given, else 0..n-1. */
export function arrayTaskIds(spec: JobSpec): number[] {
  if (spec.task_array) return spec.task_array;
  return Array.from({ length: spec.task_array_ntasks ?? 1 }, (_, i) => i);
}

/** The task map's default variable, which Coiled's scripts read as `COILED_BATCH_TASK_INPUT`. */
const TASK_INPUT = 'CUMULUS_BATCH_TASK_INPUT';

/**
 * Each task's own variables: its id, the count and the job, and its value of the task map. A script
 * written for Coiled reads the id as `COILED_BATCH_TASK_ID` and the default map's value as
 * `COILED_BATCH_TASK_INPUT`: both are set too, to the same values.
 */
export function taskEnv(spec: JobSpec, jobId: number, ids: number[], index: number): Record<string, string> {
  const env: Record<string, string> = {
    CUMULUS_BATCH_JOB_ID: String(jobId),
    CUMULUS_BATCH_TASK_ID: String(ids[index]),
    CUMULUS_BATCH_TASK_COUNT: String(ids.length),
    COILED_BATCH_TASK_ID: String(ids[index]),
  };
  if (spec.task_map_env_var && spec.task_map_env_vals) {
    env[spec.task_map_env_var] = spec.task_map_env_vals[index]!;
    if (spec.task_map_env_var === TASK_INPUT) env.COILED_BATCH_TASK_INPUT = spec.task_map_env_vals[index]!;
  }
  Object.assign(env, spec.task_map_env_vars_and_vals?.[index]);
  return env;
}

const CHUNK = 1000;

/** Writes the job's tasks, all pending (on its cluster, when it has one already). */
export async function insertTasks(
  tx: Db,
  jobId: number,
  spec: JobSpec,
  clusterId: number | null = null,
): Promise<void> {
  const ids = arrayTaskIds(spec);
  const where = placement(spec);
  for (let from = 0; from < ids.length; from += CHUNK) {
    await tx.insert(runTasks).values(
      ids.slice(from, from + CHUNK).map((arrayTaskId, i) => ({
        batchJobId: jobId,
        clusterId,
        arrayTaskId,
        runOn: where(arrayTaskId),
        command: spec.user_command,
        env: taskEnv(spec, jobId, ids, from + i),
      })),
    );
  }
}
