import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import {
  type Cluster,
  type ClusterProcess,
  clusterProcesses,
  clusters,
  type Instance,
  instances,
  type Workspace,
} from '../../db/schema/index.js';
import type { z } from '../../http/zod.js';
import type { SecretBox } from '../../lib/crypto.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { usernamesOf } from '../identity/index.js';
import { aliasNameOf } from '../software/index.js';
import { dashboardLink } from './dashboards/passes.js';
import { firewallOf } from './firewall-spec.js';
import { jupyterLink } from './notebooks/jupyter.js';
import type {
  clusterDetailsSchema,
  clusterStateSchema,
  clusterSummarySchema,
  instanceSchema,
  processSchema,
} from './schemas.js';
import { isAtRest, shownState } from './states.js';
import { stopTimers } from './stop-timers.js';

type Summary = z.infer<typeof clusterSummarySchema>;
type Details = z.infer<typeof clusterDetailsSchema>;

const current = <S extends string>(state: S, reason: string, updated: Date) => ({
  state,
  reason,
  updated: isoTime(updated),
});

/** A cluster's `current_state` as users see it (a request shows at once: states.ts shownState). */
export function presentClusterState(c: Cluster): z.infer<typeof clusterStateSchema> {
  const shown = shownState(c);
  return current(shown.state, shown.reason, shown.updated);
}

export function presentInstance(instance: Instance): z.infer<typeof instanceSchema> {
  return {
    id: instance.id,
    created: isoTime(instance.created),
    name: instance.name,
    public_ip_address: instance.publicIpAddress,
    private_ip_address: instance.privateIpAddress,
    instance_type_id: instance.instanceType,
    backend_type: instance.backendType,
    role: instance.role,
    cluster_id: instance.clusterId,
    current_state: current(instance.state, instance.stateReason, instance.stateUpdated),
    last_heartbeat: isoTimeOrNull(instance.lastHeartbeat),
  };
}

export function presentProcess(
  process: ClusterProcess,
  instance: Instance | undefined,
): z.infer<typeof processSchema> {
  return {
    id: process.id,
    created: isoTime(process.created),
    name: process.name,
    address: process.address,
    current_state: current(process.state, process.stateReason, process.stateUpdated),
    instance: instance ? presentInstance(instance) : null,
  };
}

/** Clusters for lists, with their creators and started workers in two queries whatever their number. */
export async function presentSummaries(
  db: Db,
  rows: Cluster[],
  workspacesById: Map<number, Pick<Workspace, 'id' | 'slug' | 'name'>>,
): Promise<Summary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((c) => c.id);
  const creatorIds = [...new Set(rows.flatMap((c) => (c.creatorId ? [c.creatorId] : [])))];
  const [ready, creators] = await Promise.all([
    db
      .select({ clusterId: clusterProcesses.clusterId, n: sql<number>`count(*)::int` })
      .from(clusterProcesses)
      .where(
        and(
          inArray(clusterProcesses.clusterId, ids),
          eq(clusterProcesses.role, 'worker'),
          eq(clusterProcesses.state, 'started'),
        ),
      )
      .groupBy(clusterProcesses.clusterId),
    usernamesOf(db, creatorIds),
  ]);
  const readyBy = new Map(ready.map((r) => [r.clusterId, r.n]));
  const creatorBy = new Map([...creators].map(([id, username]) => [id, { id, username }]));
  return rows.map((c) => summary(c, workspacesById.get(c.workspaceId)!, readyBy.get(c.id) ?? 0, creatorBy));
}

function summary(
  c: Cluster,
  workspace: Pick<Workspace, 'id' | 'slug' | 'name'>,
  readyWorkers: number,
  creators: Map<number, { id: number; username: string }>,
): Summary {
  return {
    id: c.id,
    name: c.name,
    created: isoTime(c.created),
    updated: isoTime(c.updated),
    current_state: presentClusterState(c),
    desired_workers: c.desiredWorkers,
    ready_workers: readyWorkers,
    creator: (c.creatorId && creators.get(c.creatorId)) || null,
    account: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    tags: c.tags,
    backend_type: c.backendType,
    scheduler_address: c.schedulerAddress,
    idle_timeout: c.idleTimeoutSeconds,
  };
}

export async function presentDetails(
  db: Db,
  secrets: SecretBox,
  cluster: Cluster,
  workspace: Pick<Workspace, 'id' | 'slug' | 'name'>,
  /** For the dashboard link: a pass of the reader's own, through this server. */
  reader: { userId: number; config: Pick<Config, 'publicUrl' | 'proxyOrigin'>; secret: string },
): Promise<Details> {
  const [processes, machines] = await Promise.all([
    db
      .select()
      .from(clusterProcesses)
      .where(eq(clusterProcesses.clusterId, cluster.id))
      .orderBy(clusterProcesses.id),
    db.select().from(instances).where(eq(instances.clusterId, cluster.id)),
  ]);
  const instanceOf = new Map(machines.map((i) => [i.processId, i]));
  const scheduler = processes.filter((p) => p.role === 'scheduler').at(-1);
  const workers = processes.filter((p) => p.role === 'worker');
  const [base] = await presentSummaries(db, [cluster], new Map([[workspace.id, workspace]]));
  const senv = await aliasNameOf(db, cluster.softwareBuildId);
  const end = isAtRest(cluster.state) ? cluster.stateUpdated : new Date();
  const schedulerInstance = scheduler ? instanceOf.get(scheduler.id) : undefined;
  const place = placeOf(cluster, schedulerInstance);
  return {
    ...base!,
    coiled_hosted: false,
    scheduler: scheduler
      ? {
          ...presentProcess(scheduler, instanceOf.get(scheduler.id)),
          dashboard_address:
            cluster.dashboardAvailable && cluster.dashboardAddress
              ? dashboardLink(reader.config, reader.secret, cluster.id, reader.userId)
              : null,
          jupyter_address: jupyterLink(reader.config, reader.secret, cluster, reader.userId),
        }
      : null,
    workers: workers.map((w) => presentProcess(w, instanceOf.get(w.id))),
    scheduler_port: cluster.schedulerPort ?? 0,
    cluster_options: {
      tls_cert: cluster.tlsCert,
      tls_key: secrets.decrypt(cluster.tlsKeyBox),
      region_name: place.region,
      zone_name: place.zone,
      firewall_spec: firewallOf(cluster.options) ?? null,
    },
    cluster_infra: {
      // A cloud VM's public address (from the cloud) is how a client outside its network reaches it.
      give_scheduler_public_ip: !!schedulerInstance?.publicIpAddress,
      current_state: { state: cluster.infraState, updated: isoTime(cluster.updated) },
    },
    senv_alias: senv ? { name: senv } : null,
    worker_options: cluster.workerOptions,
    scheduler_options: cluster.schedulerOptions,
    cost_per_hour: 0,
    total_cost: 0,
    billable_time: Math.max(0, Math.round((end.getTime() - cluster.created.getTime()) / 1000)),
    stop_timers: stopTimers(cluster),
  };
}

/** Where a cluster runs: its scheduler's region and zone (what a cloud backend recorded), else `local`. */
function placeOf(cluster: Cluster, scheduler: Instance | undefined) {
  const data = (scheduler?.backendData ?? {}) as { region?: unknown; zone?: unknown };
  const asked = (cluster.options.options ?? {}) as { region_name?: unknown };
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    region:
      text(data.region) ?? (cluster.backendType === 'in_process' ? null : text(asked.region_name)) ?? 'local',
    zone: text(data.zone),
  };
}

/** Re-reads a cluster row (after the writes of a service). */
export async function reloadCluster(db: Db, id: number): Promise<Cluster> {
  const [row] = await db.select().from(clusters).where(eq(clusters.id, id)).limit(1);
  return row!;
}
