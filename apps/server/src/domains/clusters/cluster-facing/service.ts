import { and, eq } from 'drizzle-orm';
import { portsFor } from '../../../compute/backend.js';
import type { Db } from '../../../db/client.js';
import { clusterProcesses, clusters } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { findWorkspace } from '../../identity/index.js';
import { environmentArchiveFor, pythonFor } from '../../software/index.js';
import type { ClusterWaits } from '../cluster-waits.js';
import { dashboardPrefix } from '../dashboards/passes.js';
import { machinesOf } from '../limits.js';
import { reportInstance, reportProcess } from '../observe.js';
import type { ClusterDeps } from '../ports.js';
import { assertServed } from '../served-address.js';
import { instanceShouldRun } from '../states.js';
import { recordNoClientTimeout } from '../stop-timers.js';
import { heartbeatWriter } from './heartbeats.js';
import { hotStatements } from './hot-statements.js';
import { logWriter } from './log-batches.js';
import { type PreloadName, preloadSources } from './preloads.js';
import type { instancePhoneHome, logBatch, processPhoneHome } from './schemas.js';

/** The instance a call names by backend id, which must belong to the calling cluster. */
export async function callingInstance(db: Db, clusterId: number, backendId: string) {
  const [row] = await hotStatements(db).callingInstance.execute({ backendId, clusterId });
  if (!row) throw notFound('Instance not found.');
  return row;
}

const DASK_PRELOADS = {
  scheduler: ['scheduler', 'no-client-shutdown', 'analytics', 'runs'],
  worker: ['worker'],
} as const;

/**
 * A spot worker watches its cloud's notice to retire in time: EC2's interruption notice (the
 * aws-spot preload), Compute Engine's preemption flag (gcp-spot).
 */
function spotPreload(role: string, instance: { backendType: string; backendData: unknown }): PreloadName[] {
  if (role !== 'worker' || (instance.backendData as { spot?: unknown } | null)?.spot !== true) return [];
  return instance.backendType === 'vm_gcp' ? ['gcp-spot'] : ['aws-spot'];
}

/** A bootstrap held until the worker's scheduler is known (`?wait_for_scheduler=`). */
export interface Hold {
  waits: ClusterWaits;
  ms: number;
  signal: AbortSignal;
}

/**
 * What an instance runs: `GET cluster_facing/bootstrap`. With `startedAt` (the agent's first
 * bootstrap, `?started_at=`) the same call also records what the agent's first three to five calls
 * said: the instance `started` at that private address, its Dask process `starting`, and answers
 * with the preloads' sources (`preload_sources`), so that Dask is spawned one round trip after the
 * agent starts.
 */
export async function bootstrap(
  deps: ClusterDeps,
  clusterId: number,
  backendId: string,
  hold?: Hold,
  startedAt?: string,
) {
  const { instance, process, cluster } = await callingInstance(deps.db, clusterId, backendId);
  if (startedAt !== undefined) {
    await reportInstance(deps, instance, { state: 'started', privateIp: startedAt });
    await reportProcess(deps, process, { state: 'starting' });
  } else await touch(deps.db, instance.id);
  const scheduler = process.role === 'worker' ? await schedulerAddress(deps.db, clusterId, hold) : null;
  const workspace = await findWorkspace(deps.db, cluster.workspaceId);
  const backend = await deps.backends.forCluster(cluster);
  // The machine's architecture (its role's, as the cluster recorded it): vm_aws builds per architecture.
  const machines = await machinesOf(deps.db, clusterId);
  const arch = process.role === 'scheduler' ? machines.schedulerArch : machines.workerArch;
  const ports = portsFor(backend, instance);
  const port = Number(cluster.schedulerOptions.port ?? ports?.scheduler ?? 0);
  const preloads: PreloadName[] = [...DASK_PRELOADS[process.role], ...spotPreload(process.role, instance)];
  return {
    cluster_id: cluster.id,
    cluster_name: cluster.name,
    workspace: workspace?.slug ?? '',
    instance_id: instance.id,
    instance_name: instance.name,
    backend_id: instance.backendId,
    role: process.role,
    scheduler_address: scheduler,
    scheduler_port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : 0,
    dashboard_port: ports?.dashboard ?? 0,
    dask_config: cluster.daskConfig,
    environ: cluster.environ,
    worker_options: cluster.workerOptions,
    worker_class: workerClass(cluster.options.worker_class),
    scheduler_options: cluster.schedulerOptions,
    idle_timeout_seconds: cluster.idleTimeoutSeconds,
    preloads,
    preload_sources: startedAt === undefined ? null : await preloadSources(preloads),
    reported_started: startedAt !== undefined,
    tls_cert: cluster.tlsCert,
    tls_key: deps.secrets.decrypt(cluster.tlsKeyBox),
    heartbeat_interval_seconds: deps.config.clusters.heartbeatIntervalMs / 1000,
    python: await pythonFor(deps.db, backend, cluster.softwareBuildId),
    environment: await environmentArchiveFor(deps.db, backend, cluster.softwareBuildId, arch || null).then(
      async (archive) => {
        if (!archive) return null;
        // In the workspace's bucket (vm_gcp): a signed link, fresh at each bootstrap.
        const store = backend.builder?.archives;
        if (store?.owns(archive.path))
          return {
            path: null,
            url: await store.downloadUrl(cluster.workspaceId, archive.path),
            key: archive.key,
          };
        return {
          path: `/api/v2/cluster_facing/environment.tar.gz${arch ? `?arch=${arch}` : ''}`,
          url: null,
          key: archive.key,
        };
      },
    ),
    unreachable_timeout_seconds: deps.config.clusters.agentUnreachableMs / 1000,
    dashboard_prefix: process.role === 'scheduler' ? dashboardPrefix(cluster.id) : null,
    batch: await deps.clusterPorts.batchSetup(deps.db, cluster.id),
  };
}

/**
 * The worker class an instance runs: the one created with; null for Dask's own worker, and for
 * the Nanny (what Coiled's clients send by default: the agent runs its worker without one).
 */
export function workerClass(asked: unknown): string | null {
  return typeof asked === 'string' && asked && !NANNIES.has(asked) ? asked : null;
}
const NANNIES = new Set(['distributed.Nanny', 'dask.distributed.Nanny', 'distributed.nanny.Nanny']);

function schedulerAddress(db: Db, clusterId: number, hold: Hold | undefined): Promise<string | null> {
  const look = () => runningSchedulerAddress(db, clusterId);
  return hold && hold.ms > 0 ? hold.waits.until(clusterId, hold.ms, look, hold.signal) : look();
}

async function runningSchedulerAddress(db: Db, clusterId: number): Promise<string | null> {
  const [row] = await db
    .select({ address: clusterProcesses.address })
    .from(clusterProcesses)
    .where(
      and(
        eq(clusterProcesses.clusterId, clusterId),
        eq(clusterProcesses.role, 'scheduler'),
        eq(clusterProcesses.state, 'started'),
      ),
    )
    .limit(1);
  return row?.address ?? null;
}

/** Marks the instance heard from (as a heartbeat does). */
const touch = (db: Db, instanceId: number) => hotStatements(db).touchById.execute({ instanceId });

/**
 * The heartbeat: `GET cluster_facing/instance/{backend_id}/state` answers whether to stop. It is
 * the call every instance makes every few seconds: the instance's row is touched and read, with its
 * process's, in one statement shared with the heartbeats that arrive meanwhile (HeartbeatWriter).
 */
export async function heartbeat(db: Db, clusterId: number, backendId: string) {
  const row = await heartbeatWriter(db).beat(clusterId, backendId);
  if (!row) throw notFound('Instance not found.');
  return {
    backend_id: row.backendId,
    state: row.state,
    desired_state: row.desiredState,
    stop: !instanceShouldRun(row, { desiredState: row.processDesired }),
  };
}

export async function instancePhoneHomeUpdate(
  deps: Deps,
  clusterId: number,
  body: z.infer<typeof instancePhoneHome>,
) {
  const { instance } = await callingInstance(deps.db, clusterId, body.backend_id);
  await reportInstance(deps, instance, {
    state: body.state,
    reason: body.reason,
    privateIp: body.private_ip_address,
    publicIp: body.public_ip_address,
  });
  return { ok: true };
}

export async function processPhoneHomeUpdate(
  deps: Deps,
  clusterId: number,
  role: 'scheduler' | 'worker',
  body: z.infer<typeof processPhoneHome>,
) {
  const { process, instance, cluster } = await callingInstance(deps.db, clusterId, body.backend_id);
  if (process.role !== role) throw notFound('Instance not found.');
  // The proxy goes where this says: only to the scheduler instance itself (served-address.ts).
  if (role === 'scheduler')
    await assertServed(
      deps.backends,
      cluster,
      instance,
      'dashboard',
      'dashboard_address',
      body.dashboard_address,
    );
  // Marked heard from with the heartbeats; the report itself writes only what changed.
  await Promise.all([
    heartbeatWriter(deps.db).beat(clusterId, body.backend_id),
    reportProcess(deps, process, {
      state: body.state ?? undefined,
      reason: body.reason ?? undefined,
      address: body.address ?? undefined,
      dashboardAddress: body.dashboard_address,
      dashboardAvailable: body.dashboard_available ?? false,
      stopClusterReason: body.stop_cluster_reason ?? undefined,
    }),
    role === 'scheduler' && body.no_client_timeout_seconds !== undefined
      ? recordNoClientTimeout(deps.db, clusterId, body.no_client_timeout_seconds || null)
      : undefined,
  ]);
  return { ok: true };
}

/**
 * Output lines an agent ships: `POST cluster_facing/logs`. The lines go in a statement shared with
 * the batches that arrive meanwhile (LogWriter), the instance is marked heard from with the
 * heartbeats (a failed touch fails nothing: the lines are kept, and sending them again would store
 * them twice).
 */
export async function storeLogs(db: Db, clusterId: number, body: z.infer<typeof logBatch>) {
  const [stored] = await Promise.all([
    logWriter(db).store({
      clusterId,
      backendId: body.backend_id,
      lines: body.lines.map((l) => ({
        timestampMs: l.timestamp_ms,
        source: l.source,
        // PostgreSQL text cannot hold NUL.
        message: l.message.replaceAll('\0', ''),
        taskId: l.task_id ?? null,
      })),
    }),
    heartbeatWriter(db)
      .beat(clusterId, body.backend_id)
      .catch(() => undefined),
  ]);
  if (stored === null) throw notFound('Instance not found.');
  return { stored };
}

/** The file of the calling cluster's environment archive (`?arch=`: for machines of that architecture): `GET cluster_facing/environment.tar.gz`. */
export async function environmentArchive(deps: ClusterDeps, clusterId: number, arch: string | null = null) {
  const [cluster] = await deps.db.select().from(clusters).where(eq(clusters.id, clusterId));
  if (!cluster) throw notFound('Cluster not found.');
  const backend = await deps.backends.forCluster(cluster);
  const archive = await environmentArchiveFor(deps.db, backend, cluster.softwareBuildId, arch);
  if (!archive) throw notFound('This cluster has no software environment archive.');
  if (backend.builder?.archives?.owns(archive.path))
    throw notFound(
      "This cluster's software environment is in the workspace's bucket: bootstrap's `environment.url` is its link.",
    );
  return archive;
}
