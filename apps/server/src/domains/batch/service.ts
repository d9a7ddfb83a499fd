import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type BatchJob, batchJobs, type User } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { badRequest, permissionDenied } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import type { ClusterDeps } from '../clusters/index.js';
import { assertMayCreate, createCluster } from '../clusters/index.js';
import type { WorkspaceAccess } from '../identity/index.js';
import type { JobAccess } from './access.js';
import { FINISHED_JOBS, finishJob } from './lifecycle.js';
import type { JobSpec, singleJobBody } from './schemas.js';
import { arrayTaskIds, insertTasks } from './tasks.js';

/** A job no cluster was started for within this long fails (the client that submitted it went away). */
export const UNCLAIMED_JOB_MS = 60 * 60_000;

/**
 * `POST jobs/` (and `jobs/compressed`): stores the job and its tasks; it waits for a cluster. The
 * workspace is the one the route resolved (the spec's `workspace`, else the submitter's default).
 */
export async function createJob(deps: Deps, access: WorkspaceAccess, spec: JobSpec): Promise<BatchJob> {
  assertMayCreate(access);
  const { user } = access;
  return deps.db.transaction((tx) => insertJob(deps, tx, { workspaceId: access.workspace.id, user, spec }));
}

/**
 * The job and its tasks, in the caller's transaction. One made with its cluster (`clusterId`) is
 * due at once; one without waits for a cluster, and the loop looks when the wait is too long.
 */
async function insertJob(
  deps: Pick<Deps, 'secrets'>,
  tx: Db,
  made: { workspaceId: number; user: User; spec: JobSpec; id?: number; clusterId?: number },
): Promise<BatchJob> {
  const { spec } = made;
  const secrets = spec.secret_env_vars ?? {};
  const names = Object.keys(secrets);
  const [job] = await tx
    .insert(batchJobs)
    .values({
      ...(made.id !== undefined && { id: made.id }),
      workspaceId: made.workspaceId,
      creatorId: made.user.id,
      clusterId: made.clusterId ?? null,
      userCommand: spec.user_command,
      userFiles: (spec.user_files ?? []).map((f) => ({
        path: f.remote_path || f.path,
        content: f.content,
      })),
      envVars: spec.env_vars ?? {},
      secretEnvBox: names.length ? deps.secrets.encrypt(JSON.stringify(secrets)) : null,
      secretEnvNames: names,
      workdir: spec.workdir ?? null,
      pipeToFiles: spec.pipe_to_files ?? false,
      hostSetup: spec.host_setup || null,
      runInContainer: spec.run_in_container ?? false,
      timeoutSeconds: spec.job_timeout_seconds ? Math.ceil(spec.job_timeout_seconds) : null,
      maxRetries: spec.max_retries ?? 1,
      maxConcurrent: spec.max_concurrent_tasks ?? null,
      nTasks: arrayTaskIds(spec).length,
      reconcileAt: made.clusterId ? new Date() : new Date(Date.now() + UNCLAIMED_JOB_MS),
    })
    .returning();
  await insertTasks(tx, job!.id, spec, made.clusterId ?? null);
  return job!;
}

/**
 * `jobs/single-job-script/`: the job and a cluster sized for it (one worker per worker task, up to
 * `max_workers`), made together in the cluster's create transaction: a cluster that cannot be made
 * leaves no job behind.
 */
export async function createSingleJob(
  deps: ClusterDeps,
  access: WorkspaceAccess,
  body: z.infer<typeof singleJobBody>,
) {
  assertMayCreate(access);
  const { user } = access;
  const { max_workers, name, ...cluster } = body.cluster ?? {};
  const ids = arrayTaskIds(body);
  const onScheduler = new Set(body.scheduler_task_array ?? []);
  const workerTasks =
    body.run_on_scheduler && body.run_on_workers === false
      ? 0
      : ids.filter((i) => !onScheduler.has(i)).length;
  const workers = Math.min(workerTasks, max_workers ?? 1000);
  // The cluster is named after the job, so the job's id is taken first (an id a failed create
  // leaves unused is a gap, as any failed insert leaves).
  const jobId = await nextJobId(deps.db);
  // The workspace access resolved for the request is the cluster's: it is not looked up again.
  const created = await createCluster(
    deps,
    access,
    {
      ...cluster,
      name: name || `batch-job-${jobId}`,
      workers,
      tags: { ...cluster.tags, 'cumulus-cluster-type': 'batch' },
      scheduler_options: { idle_timeout: '520 weeks', ...cluster.scheduler_options },
    },
    {
      alsoWrite: async (tx, clusterId) => {
        await insertJob(deps, tx, {
          workspaceId: access.workspace.id,
          user,
          spec: body,
          id: jobId,
          clusterId,
        });
      },
    },
  );
  deps.loops.wake('batch-jobs');
  return { id: jobId, cluster_id: created.id };
}

async function nextJobId(db: Db): Promise<number> {
  const result = await db.execute<{ id: string }>(
    sql`select nextval(pg_get_serial_sequence('batch_jobs', 'id')) as id`,
  );
  return Number((result as unknown as { rows: { id: string }[] }).rows[0]!.id);
}

/** `DELETE jobs/{id}`: the creator or a workspace admin cancels it; its tasks are stopped and so is its cluster. */
export async function cancelJob(deps: Deps, { job, access }: JobAccess): Promise<BatchJob> {
  const { user } = access;
  const mine = job.creatorId === user.id && (access.membership || access.isOrganizationAdmin);
  if (!mine && !access.isAdmin)
    throw permissionDenied(
      `Only the creator of batch job ${job.id} and admins of ${access.workspace.name} can cancel it.`,
    );
  if (FINISHED_JOBS.includes(job.state)) {
    if (job.state === 'cancelled') return job;
    throw badRequest(`Batch job ${job.id} is ${job.state} already.`, 'JOB_FINISHED');
  }
  const reason = `Cancelled by ${user.username}`;
  await finishJob(deps, job, 'cancelled', reason);
  const [row] = await deps.db.select().from(batchJobs).where(eq(batchJobs.id, job.id));
  return row!;
}
