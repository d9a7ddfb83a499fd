import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusterProcesses, clusters, instanceLogs, instances } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { findWorkspace } from '../../identity/index.js';
import { pythonFor } from '../../software/index.js';
import { dashboardPrefix } from '../dashboards/passes.js';
import { reportInstance, reportProcess } from '../observe.js';
import type { ClusterDeps } from '../ports.js';
import { instanceShouldRun } from '../states.js';
import type { instancePhoneHome, logBatch, processPhoneHome } from './schemas.js';

/** The instance a call names by backend id, which must belong to the calling cluster. */
export async function callingInstance(db: Db, clusterId: number, backendId: string) {
  const [row] = await db
    .select({ instance: instances, process: clusterProcesses, cluster: clusters })
    .from(instances)
    .innerJoin(clusterProcesses, eq(clusterProcesses.id, instances.processId))
    .innerJoin(clusters, eq(clusters.id, instances.clusterId))
    .where(and(eq(instances.backendId, backendId), eq(instances.clusterId, clusterId)))
    .limit(1);
  if (!row) throw notFound('Instance not found.');
  return row;
}

const DASK_PRELOADS = {
  scheduler: ['scheduler', 'no-client-shutdown', 'analytics'],
  worker: ['worker'],
} as const;

/** What an instance runs: `GET cluster_facing/bootstrap`. */
export async function bootstrap(deps: ClusterDeps, clusterId: number, backendId: string) {
  const { instance, process, cluster } = await callingInstance(deps.db, clusterId, backendId);
  const workspace = await findWorkspace(deps.db, cluster.workspaceId);
  await touch(deps.db, instance.id);
  const scheduler = process.role === 'worker' ? await runningSchedulerAddress(deps.db, clusterId) : null;
  const backend = await deps.backends.forCluster(cluster);
  const port = Number(cluster.schedulerOptions.port ?? backend.ports?.scheduler ?? 0);
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
    dashboard_port: backend.ports?.dashboard ?? 0,
    dask_config: cluster.daskConfig,
    environ: cluster.environ,
    worker_options: cluster.workerOptions,
    scheduler_options: cluster.schedulerOptions,
    idle_timeout_seconds: cluster.idleTimeoutSeconds,
    preloads: [...DASK_PRELOADS[process.role]],
    tls_cert: cluster.tlsCert,
    tls_key: deps.secrets.decrypt(cluster.tlsKeyBox),
    heartbeat_interval_seconds: deps.config.clusters.heartbeatIntervalMs / 1000,
    python: await pythonFor(deps.db, backend, cluster.softwareBuildId),
    unreachable_timeout_seconds: deps.config.clusters.agentUnreachableMs / 1000,
    dashboard_prefix: process.role === 'scheduler' ? dashboardPrefix(cluster.id) : null,
    batch: await deps.clusterPorts.batchSetup(deps.db, cluster.id),
  };
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

const touch = (db: Db, instanceId: number) =>
  db.update(instances).set({ lastHeartbeat: new Date() }).where(eq(instances.id, instanceId));

/** The heartbeat: `GET cluster_facing/instance/{backend_id}/state` answers whether to stop. */
export async function heartbeat(db: Db, clusterId: number, backendId: string) {
  const { instance, process } = await callingInstance(db, clusterId, backendId);
  await touch(db, instance.id);
  return {
    backend_id: instance.backendId,
    state: instance.state,
    desired_state: instance.desiredState,
    stop: !instanceShouldRun(instance, process),
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
  const { instance, process } = await callingInstance(deps.db, clusterId, body.backend_id);
  if (process.role !== role) throw notFound('Instance not found.');
  await touch(deps.db, instance.id);
  await reportProcess(deps, process, {
    state: body.state ?? undefined,
    reason: body.reason ?? undefined,
    address: body.address ?? undefined,
    dashboardAddress: body.dashboard_address,
    dashboardAvailable: body.dashboard_available ?? false,
    stopClusterReason: body.stop_cluster_reason ?? undefined,
  });
  return { ok: true };
}

/** Output lines an agent ships: `POST cluster_facing/logs`. */
export async function storeLogs(db: Db, clusterId: number, body: z.infer<typeof logBatch>) {
  const { instance } = await callingInstance(db, clusterId, body.backend_id);
  await touch(db, instance.id);
  if (body.lines.length === 0) return { stored: 0 };
  await db.insert(instanceLogs).values(
    body.lines.map((l) => ({
      clusterId,
      instanceId: instance.id,
      timestampMs: l.timestamp_ms,
      source: l.source,
      // PostgreSQL text cannot hold NUL.
      message: l.message.replaceAll('\0', ''),
      taskId: l.task_id ?? null,
    })),
  );
  return { stored: body.lines.length };
}
