import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
} from 'drizzle-orm/pg-core';
import { clusters, instances } from '../clusters/clusters.js';
import { createdAt, loopColumns, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

export const BATCH_JOB_STATES = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
export type BatchJobState = (typeof BATCH_JOB_STATES)[number];
export const batchJobState = pgEnum('batch_job_state', BATCH_JOB_STATES);

/** A file the job writes into its work directory before each task. */
export interface UserFile {
  path: string;
  content: string;
}

/**
 * A batch job: one command run as an array of tasks on a cluster made for it (`batch_job_ids`).
 * Pending until its cluster is ready, running until every task has finished, then done (every
 * task succeeded) or failed; cancelled when a user cancels it. The job loop (modules/jobs/
 * reconcile.ts) moves it and stops its cluster once it is over.
 */
export const batchJobs = pgTable(
  'batch_jobs',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    clusterId: integer('cluster_id').references(() => clusters.id, { onDelete: 'set null' }),
    state: batchJobState('state').notNull().default('pending'),
    /** Why it is in its state (which tasks failed, who cancelled, the timeout...). */
    reason: text('reason').notNull().default(''),
    userCommand: text('user_command').notNull(),
    userFiles: jsonb('user_files').$type<UserFile[]>().notNull().default([]),
    envVars: jsonb('env_vars').$type<Record<string, string>>().notNull().default({}),
    /** Secret variables: JSON sealed in a SecretBox; only their names are ever shown. */
    secretEnvBox: text('secret_env_box'),
    secretEnvNames: jsonb('secret_env_names').$type<string[]>().notNull().default([]),
    workdir: text('workdir'),
    pipeToFiles: boolean('pipe_to_files').notNull().default(false),
    hostSetup: text('host_setup'),
    runInContainer: boolean('run_in_container').notNull().default(false),
    timeoutSeconds: integer('timeout_seconds'),
    /** How many times a task whose instance was lost runs again elsewhere. */
    maxRetries: integer('max_retries').notNull().default(1),
    /** At most this many tasks run at once (Slurm's `%N`); null: as many as there are instances. */
    maxConcurrent: integer('max_concurrent'),
    nTasks: integer('n_tasks').notNull(),
    nSucceeded: integer('n_succeeded').notNull().default(0),
    nFailed: integer('n_failed').notNull().default(0),
    created: createdAt(),
    started: tstz('started'),
    completed: tstz('completed'),
    ...loopColumns(),
  },
  (t) => [
    index('batch_jobs_account_created_idx').on(
      t.workspaceId,
      t.created.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('batch_jobs_cluster_idx').on(t.clusterId),
    index('batch_jobs_reconcile_idx').on(t.reconcileAt).where(sql`${t.reconcileAt} is not null`),
  ],
);

export const RUN_TASK_STATES = ['pending', 'assigned', 'running', 'done', 'error'] as const;
export type RunTaskState = (typeof RUN_TASK_STATES)[number];
export const runTaskState = pgEnum('run_task_state', RUN_TASK_STATES);
export const runTaskTarget = pgEnum('run_task_target', ['scheduler', 'worker', 'any']);

/**
 * The tasks of batch jobs: instances of the job's cluster claim pending ones
 * (`pending-run-task`) and report their state (`run-task/{id}`). A task has no cluster until its
 * job's cluster is created.
 */
export const runTasks = pgTable(
  'run_tasks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: integer('cluster_id').references(() => clusters.id, { onDelete: 'cascade' }),
    batchJobId: integer('batch_job_id').references(() => batchJobs.id, { onDelete: 'cascade' }),
    arrayTaskId: integer('array_task_id').notNull().default(0),
    runOn: runTaskTarget('run_on').notNull().default('worker'),
    command: text('command').notNull(),
    env: jsonb('env').$type<Record<string, string>>().notNull().default({}),
    state: runTaskState('state').notNull().default('pending'),
    instanceId: integer('instance_id').references(() => instances.id, { onDelete: 'set null' }),
    /** Times it ran again after losing its instance. */
    retries: integer('retries').notNull().default(0),
    exitCode: integer('exit_code'),
    reason: text('reason').notNull().default(''),
    /** Bytes of the output file kept for it (`pipe_to_files`); null: none. */
    outputBytes: integer('output_bytes'),
    start: tstz('start'),
    stop: tstz('stop'),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [
    index('run_tasks_cluster_state_idx').on(t.clusterId, t.state, t.id),
    index('run_tasks_instance_idx').on(t.instanceId),
    // A claim's "the task this instance holds" (assigned to it, or running on it: see
    // batch/next-task.ts) and a report's "has the job tasks left" read only the few rows they are
    // about, however many of the job's tasks have finished.
    index('run_tasks_held_idx').on(t.instanceId, t.id).where(sql`${t.state} in ('assigned', 'running')`),
    index('run_tasks_unfinished_idx')
      .on(t.batchJobId)
      .where(sql`${t.state} in ('pending', 'assigned', 'running')`),
    index('run_tasks_job_idx').on(t.batchJobId, t.arrayTaskId),
  ],
);

export type BatchJob = typeof batchJobs.$inferSelect;
export type RunTask = typeof runTasks.$inferSelect;
