import { text, z } from '../../http/zod.js';
import { backendId } from '../clusters/index.js';

// What instances of batch clusters send and read about the tasks they run (cluster_facing/run-task*).

export const runTaskSchema = z.object({
  id: z.number().int(),
  batch_job_id: z.number().int().nullable(),
  array_task_id: z.number().int(),
  run_on: z.enum(['scheduler', 'worker', 'any']),
  command: z.string(),
  env: z.record(z.string(), z.string()),
  state: z.enum(['pending', 'assigned', 'running', 'done', 'error']),
  exit_code: z.number().int().nullable(),
  reason: z.string(),
  assigned_to: z
    .object({
      instance_id: z.number().int(),
      backend_id: z.string(),
      name: z.string(),
      private_ip_address: z.string().nullable(),
    })
    .nullable(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
});

/** What an instance needs to run a task it claimed: the job's files, variables (secrets too) and limits. */
export const claimedTaskSchema = runTaskSchema.extend({
  user_files: z.array(z.object({ path: z.string(), content: z.string() })),
  /** Where the task runs (the job's `workdir`); null: the instance's work directory. */
  workdir: z.string().nullable(),
  pipe_to_files: z.boolean(),
  timeout_seconds: z.number().int().nullable(),
});

export const runTaskAnswer = runTaskSchema.extend({
  /** The instance stops the task's command when this is true (cancelled, timed out, the job ended). */
  stop_task: z.boolean(),
});

export const runTaskParams = z.object({
  task_id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
});
export const runTaskUpdate = z.object({
  state: z.enum(['running', 'done', 'error']),
  exit_code: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  reason: text(2000).optional(),
  /** The instance reporting; it takes the task when nobody holds it yet. */
  backend_id: backendId.optional(),
});

/** The combined call: the end of the last task, if any, and the claim of the next. */
export const nextTaskRequest = z.object({
  report: z
    .object({
      task_id: runTaskParams.shape.task_id,
      state: z.enum(['done', 'error']),
      exit_code: runTaskUpdate.shape.exit_code,
      reason: runTaskUpdate.shape.reason,
    })
    .nullable()
    .optional(),
});
export const nextTaskAnswer = z.object({
  /** The reported task as it now stands; null when none was reported or the report was refused (409). */
  report: runTaskAnswer.nullable(),
  /** The next task, already `running` on this instance; null when there is none for now. */
  task: claimedTaskSchema.nullable(),
});
