import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BatchJob, batchJobs, type RunTask, runTasks } from '../../db/schema/index.js';
import type { z } from '../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { type ClusterAccess, clusterView, instanceView } from '../clusters/index.js';
import { type ResolvedScope, userView, type WorkspaceAccess, workspaceView } from '../identity/index.js';
import { FINISHED_JOBS, type TaskCounts, taskCounts } from './lifecycle.js';
import type { clusterJob, jobDetails, jobListItem, jobListQuery, taskSchema } from './schemas.js';

const jobRows = (db: Db) =>
  db
    .select({
      job: batchJobs,
      workspaceName: workspaceView.name,
      creator: userView.username,
      clusterName: clusterView.name,
      clusterState: clusterView.state,
    })
    .from(batchJobs)
    .innerJoin(workspaceView, eq(workspaceView.id, batchJobs.workspaceId))
    .leftJoin(userView, eq(userView.id, batchJobs.creatorId))
    .leftJoin(clusterView, eq(clusterView.id, batchJobs.clusterId));
type JobRow = Awaited<ReturnType<ReturnType<typeof jobRows>['where']>>[number];

function summary(row: JobRow, counts: TaskCounts | undefined) {
  const { job } = row;
  // A finished job keeps the counts it ended with; a live one counts its tasks now.
  const live = !FINISHED_JOBS.includes(job.state);
  return {
    id: job.id,
    workspace_name: row.workspaceName,
    creator: row.creator,
    cluster_id: job.clusterId,
    cluster_name: row.clusterName,
    cluster_state: row.clusterState,
    user_command: job.userCommand,
    n_tasks: job.nTasks,
    n_tasks_succeeded: live ? (counts?.succeeded ?? 0) : job.nSucceeded,
    n_tasks_failed: live ? (counts?.failed ?? 0) : job.nFailed,
    n_tasks_running: counts?.running ?? 0,
    created: isoTime(job.created),
    started: isoTimeOrNull(job.started),
    completed: isoTimeOrNull(job.completed),
    approximate_cloud_total_cost: null,
    state: job.state,
    reason: job.reason,
  };
}

/** `GET jobs/`: newest first, of one workspace or every one the caller reads (staff: every one). */
export async function listJobs(
  db: Db,
  access: { workspace?: WorkspaceAccess | undefined; scope: ResolvedScope },
  query: z.infer<typeof jobListQuery>,
): Promise<{ items: z.infer<typeof jobListItem>[]; count: number }> {
  // Staff see every workspace's jobs (the Batch Jobs page); others those of workspaces they read.
  const workspaceIds = access.workspace ? [access.workspace.workspace.id] : access.scope.workspaceIds;
  if (workspaceIds?.length === 0) return { items: [], count: 0 };
  const where: SQL = and(
    workspaceIds ? inArray(batchJobs.workspaceId, workspaceIds) : undefined,
    query.cluster_id ? eq(batchJobs.clusterId, query.cluster_id) : undefined,
    query.state ? eq(batchJobs.state, query.state) : undefined,
  )!;
  const [rows, [total]] = await Promise.all([
    jobRows(db)
      .where(where)
      .orderBy(desc(batchJobs.created), desc(batchJobs.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(batchJobs).where(where),
  ]);
  const counts = await taskCounts(
    db,
    rows.map((r) => r.job.id),
  );
  return { items: rows.map((r) => summary(r, counts.get(r.job.id))), count: total?.n ?? 0 };
}

async function jobTasks(db: Db, jobIds: number[]) {
  if (jobIds.length === 0) return [];
  return db
    .select({
      task: runTasks,
      instance: {
        id: instanceView.id,
        name: instanceView.name,
        privateIpAddress: instanceView.privateIpAddress,
      },
    })
    .from(runTasks)
    .leftJoin(instanceView, eq(instanceView.id, runTasks.instanceId))
    .where(inArray(runTasks.batchJobId, jobIds))
    .orderBy(asc(runTasks.arrayTaskId), asc(runTasks.id));
}

function presentTask(
  task: RunTask,
  instance: { id: number; name: string; privateIpAddress: string | null } | null,
): z.infer<typeof taskSchema> {
  return {
    id: task.id,
    array_task_id: task.arrayTaskId,
    state: task.state,
    run_on: task.runOn,
    assigned_to: instance
      ? { instance_id: instance.id, name: instance.name, private_ip_address: instance.privateIpAddress }
      : null,
    start: isoTimeOrNull(task.start),
    stop: isoTimeOrNull(task.stop),
    exit_code: task.exitCode,
    reason: task.reason,
    retries: task.retries,
    output_bytes: task.outputBytes,
  };
}

/** The state established clients read (`"done" in state` means finished). */
function clientState(job: BatchJob): string {
  if (job.state === 'done') return 'done (success)';
  if (job.state === 'failed' || job.state === 'cancelled') return `done (${job.state})`;
  return job.state;
}

/** `GET jobs/{id}`: the job with its tasks (its secret variables by name only). */
export async function jobDetailsFor(db: Db, job: BatchJob): Promise<z.infer<typeof jobDetails>> {
  const [[row], tasks] = await Promise.all([
    jobRows(db).where(eq(batchJobs.id, job.id)),
    jobTasks(db, [job.id]),
  ]);
  const counts = (await taskCounts(db, [job.id])).get(job.id);
  return {
    ...summary(row!, counts),
    state: clientState(job),
    job_state: job.state,
    finished: FINISHED_JOBS.includes(job.state),
    env_vars: job.envVars,
    secret_env_var_names: job.secretEnvNames,
    workdir: job.workdir,
    pipe_to_files: job.pipeToFiles,
    host_setup: job.hostSetup,
    timeout_seconds: job.timeoutSeconds,
    max_retries: job.maxRetries,
    max_concurrent_tasks: job.maxConcurrent,
    files: job.userFiles.map((f) => f.path),
    tasks: tasks.map((t) => presentTask(t.task, t.instance)),
  };
}

/** `GET jobs/cluster/{id}`: the jobs a cluster runs, with their tasks. */
export async function jobsOfCluster(
  db: Db,
  { cluster }: ClusterAccess,
): Promise<z.infer<typeof clusterJob>[]> {
  const jobs = await db
    .select()
    .from(batchJobs)
    .where(eq(batchJobs.clusterId, cluster.id))
    .orderBy(asc(batchJobs.id));
  const tasks = await jobTasks(
    db,
    jobs.map((j) => j.id),
  );
  return jobs.map((job) => ({
    id: job.id,
    cluster_id: cluster.id,
    cluster_state: cluster.state,
    state: job.state,
    user_command: job.userCommand,
    tasks: tasks.filter((t) => t.task.batchJobId === job.id).map((t) => presentTask(t.task, t.instance)),
  }));
}
