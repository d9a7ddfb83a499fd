import { offsetQuery } from '../../http/pagination.js';
import { id, text, z } from '../../http/zod.js';
import { createClusterBody } from '../clusters/index.js';

/** The most tasks one job has: the size of the biggest arrays users run (Slurm's default MaxArraySize is 1001). */
export const MAX_TASKS = 10_000;

const envName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Use letters, digits and _ for environment variable names.');
const envVars = z
  .record(envName, z.string().max(100_000))
  .refine((vars) => Object.keys(vars).length <= 500, 'Ensure there are no more than 500 variables.');
const taskIds = z.array(z.number().int().min(0).max(10_000_000)).max(MAX_TASKS);

const userFile = z.object({
  path: text(1000)
    .min(1)
    .refine((p) => !p.split(/[\\/]/).includes('..'), 'A file path may not leave the work directory.'),
  content: z.string().max(50 * 1024 * 1024),
  local_path: z.string().max(4000).nullish(),
  remote_path: z.string().max(4000).nullish(),
});

/**
 * A batch job as clients submit it. The tasks are `task_array`
 * (their ids) or `task_array_ntasks` (ids 0..n-1), one task without either; ids in
 * `scheduler_task_array` run on the scheduler. A task map gives each task its own value of one
 * variable (`task_map_env_var` = `task_map_env_vals[i]`) or its own variables.
 */
export const jobSpec = z
  .object({
    workspace: text(100).min(1).nullish(),
    user_command: text(100_000).min(1),
    user_files: z.array(userFile).max(1000).nullish(),
    user_file_refs: z.array(z.unknown()).max(0, 'Send the files themselves in user_files.').nullish(),
    task_array_ntasks: z.number().int().min(1).max(MAX_TASKS).nullish(),
    task_array: taskIds.min(1).nullish(),
    scheduler_task_array: taskIds.nullish(),
    run_on_scheduler: z.boolean().nullish(),
    run_on_workers: z.boolean().nullish(),
    env_vars: envVars.nullish(),
    secret_env_vars: envVars.nullish(),
    task_map_env_var: envName.nullish(),
    task_map_env_vals: z.array(z.string().max(100_000)).max(MAX_TASKS).nullish(),
    task_map_env_vars_and_vals: z.array(envVars).max(MAX_TASKS).nullish(),
    wait_for_ready_cluster: z.boolean().nullish(),
    workdir: text(1000).nullish(),
    pipe_to_files: z.boolean().nullish(),
    host_setup: z.string().max(100_000).nullish(),
    job_timeout_seconds: z
      .number()
      .positive()
      .max(366 * 86_400)
      .nullish(),
    run_in_container: z.boolean().nullish(),
    max_retries: z.number().int().min(0).max(10).nullish(),
    max_concurrent_tasks: z.number().int().min(1).max(MAX_TASKS).nullish(),
  })
  .superRefine((spec, ctx) => {
    if (spec.task_array && new Set(spec.task_array).size !== spec.task_array.length)
      ctx.addIssue({ code: 'custom', path: ['task_array'], message: 'Task ids must be unique.' });
    if (spec.task_array && spec.task_array_ntasks != null)
      ctx.addIssue({
        code: 'custom',
        path: ['task_array_ntasks'],
        message: 'Give task_array or task_array_ntasks, not both.',
      });
    const n = spec.task_array?.length ?? spec.task_array_ntasks ?? 1;
    for (const key of ['task_map_env_vals', 'task_map_env_vars_and_vals'] as const) {
      const values = spec[key];
      if (values && values.length !== n)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Give one value per task: ${n} task${n === 1 ? '' : 's'}, ${values.length} value${values.length === 1 ? '' : 's'}.`,
        });
    }
    if (spec.task_map_env_vals && !spec.task_map_env_var)
      ctx.addIssue({
        code: 'custom',
        path: ['task_map_env_var'],
        message: 'Name the variable the values go into.',
      });
  });
export type JobSpec = z.infer<typeof jobSpec>;

/** `jobs/single-job-script/`: a job and the cluster it runs on, in one call. */
export const singleJobBody = jobSpec.and(
  z.object({
    cluster: createClusterBody
      .omit({ name: true, batch_job_ids: true })
      .partial()
      .extend({
        name: text(128).min(1).nullish(),
        max_workers: z.number().int().min(0).max(1000).nullish(),
      })
      .nullish(),
  }),
);

export const JOB_STATES = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
const jobState = z.enum(JOB_STATES);
const taskState = z.enum(['pending', 'assigned', 'running', 'done', 'error']);

export const taskSchema = z.object({
  id: z.number().int().describe('The run task id (what `better-logs?task_id=` filters on).'),
  array_task_id: z.number().int(),
  state: taskState,
  run_on: z.enum(['scheduler', 'worker', 'any']),
  assigned_to: z
    .object({ instance_id: z.number().int(), name: z.string(), private_ip_address: z.string().nullable() })
    .nullable(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  reason: z.string(),
  retries: z.number().int(),
  output_bytes: z.number().int().nullable().describe('Size of its kept output file (`pipe_to_files`).'),
});

const jobBase = {
  id: z.number().int(),
  workspace_name: z.string(),
  creator: z.string().nullable(),
  cluster_id: z.number().int().nullable(),
  cluster_name: z.string().nullable(),
  cluster_state: z.string().nullable(),
  user_command: z.string(),
  n_tasks: z.number().int(),
  n_tasks_succeeded: z.number().int(),
  n_tasks_failed: z.number().int(),
  n_tasks_running: z.number().int(),
  created: z.string(),
  started: z.string().nullable(),
  completed: z.string().nullable(),
  approximate_cloud_total_cost: z.number().nullable(),
};

export const jobListItem = z.object({ ...jobBase, state: jobState, reason: z.string() });
export const jobList = z.object({ items: z.array(jobListItem), count: z.number().int() });

export const jobDetails = z.object({
  ...jobBase,
  state: z
    .string()
    .describe('pending, running, or once finished "done (success)", "done (failed)" or "done (cancelled)".'),
  job_state: jobState,
  reason: z.string(),
  finished: z.boolean(),
  env_vars: z.record(z.string(), z.string()),
  secret_env_var_names: z.array(z.string()),
  workdir: z.string().nullable(),
  pipe_to_files: z.boolean(),
  host_setup: z.string().nullable(),
  timeout_seconds: z.number().int().nullable(),
  max_retries: z.number().int(),
  max_concurrent_tasks: z.number().int().nullable(),
  files: z.array(z.string()),
  tasks: z.array(taskSchema),
});

export const clusterJob = z.object({
  id: z.number().int(),
  cluster_id: z.number().int(),
  cluster_state: z.string(),
  state: jobState,
  user_command: z.string(),
  tasks: z.array(taskSchema),
});

export const jobListQuery = offsetQuery.extend({
  workspace: text(100).min(1).optional(),
  cluster_id: id.optional(),
  state: jobState.optional(),
});
export const jobParams = z.object({ job_id: id });
export const jobClusterParams = z.object({ cluster_id: id });
export const taskOutputParams = z.object({ job_id: id, array_task_id: z.coerce.number().int().min(0) });
export const createdJob = z.object({ id: z.number().int() });
export const createdSingleJob = z.object({ id: z.number().int(), cluster_id: z.number().int() });

export const outputFilesAnswer = z.object({
  files: z.array(
    z.object({ filestore: z.string(), relative_path: z.string(), size: z.number().int(), url: z.string() }),
  ),
});
