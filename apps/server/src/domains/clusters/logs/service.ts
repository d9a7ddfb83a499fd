import { and, asc, count, desc, eq, gte, inArray, lte, max, min, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Cluster,
  clusterProcesses,
  instanceLogs,
  instances,
  stateHistory,
} from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { contains } from '../../../lib/sql.js';
import { isoTime } from '../../../lib/time.js';
import type { BetterLogsQuery, instanceLogsQuery } from './schemas.js';

/** Log lines as every log call answers them: `{timestamp (epoch ms), instance_id, message, instance, source}`. */
export const logColumns = {
  timestamp: instanceLogs.timestampMs,
  instance_id: instanceLogs.instanceId,
  message: instanceLogs.message,
  source: instanceLogs.source,
  instance: instances.name,
  task_id: instanceLogs.taskId,
};
const logRows = (db: Db) =>
  db.select(logColumns).from(instanceLogs).innerJoin(instances, eq(instances.id, instanceLogs.instanceId));

/** The sources asked for: both unless `dask` or `system` is given, then those given as true. */
function sources(query: { dask?: boolean | undefined; system?: boolean | undefined }) {
  if (query.dask === undefined && query.system === undefined) return undefined;
  return [...(query.dask ? ['dask' as const] : []), ...(query.system ? ['system' as const] : [])];
}

export type LogFilters = Partial<
  Pick<
    BetterLogsQuery,
    'instance_ids' | 'dask' | 'system' | 'since_ms' | 'until_ms' | 'filter_pattern' | 'task_id'
  >
>;

/** The where clause of better-logs' filters; null when they exclude every line. */
export function logConditions(clusterId: number, query: LogFilters): SQL | null {
  const wanted = sources(query);
  if (wanted?.length === 0) return null;
  return and(
    eq(instanceLogs.clusterId, clusterId),
    query.instance_ids ? inArray(instanceLogs.instanceId, query.instance_ids) : undefined,
    wanted ? inArray(instanceLogs.source, wanted) : undefined,
    query.since_ms !== undefined ? gte(instanceLogs.timestampMs, query.since_ms) : undefined,
    query.until_ms !== undefined ? lte(instanceLogs.timestampMs, query.until_ms) : undefined,
    query.filter_pattern ? contains(instanceLogs.message, query.filter_pattern) : undefined,
    query.task_id !== undefined ? eq(instanceLogs.taskId, query.task_id) : undefined,
  )!;
}

/** A cluster's log lines, oldest first, with the filters of better-logs. */
export async function clusterLogs(db: Db, clusterId: number, query: BetterLogsQuery) {
  const where = logConditions(clusterId, query);
  if (!where) return [];
  return logRows(db)
    .where(where)
    .orderBy(asc(instanceLogs.timestampMs), asc(instanceLogs.id))
    .limit(query.page_limit ?? query.limit);
}

/** One instance's lines, oldest first, from `since` (epoch ms). */
export async function instanceLogLines(db: Db, instanceId: number, query: z.infer<typeof instanceLogsQuery>) {
  return logRows(db)
    .where(
      and(
        eq(instanceLogs.instanceId, instanceId),
        query.since !== undefined ? gte(instanceLogs.timestampMs, query.since) : undefined,
      ),
    )
    .orderBy(asc(instanceLogs.timestampMs), asc(instanceLogs.id))
    .limit(query.limit);
}

/** `log-info`: what logs a cluster has, for a log viewer to start from. */
export async function logInfo(db: Db, cluster: Cluster) {
  const [machines, [stats]] = await Promise.all([
    db.select().from(instances).where(eq(instances.clusterId, cluster.id)).orderBy(asc(instances.id)),
    db
      .select({ n: count(), earliest: min(instanceLogs.timestampMs), latest: max(instanceLogs.timestampMs) })
      .from(instanceLogs)
      .where(eq(instanceLogs.clusterId, cluster.id)),
  ]);
  return {
    cluster_id: cluster.id,
    instances: machines.map((i) => ({ id: i.id, name: i.name, role: i.role, state: i.state })),
    line_count: stats?.n ?? 0,
    earliest_ms: stats?.earliest === null || stats?.earliest === undefined ? null : Number(stats.earliest),
    latest_ms: stats?.latest === null || stats?.latest === undefined ? null : Number(stats.latest),
  };
}

/** `infra-events-log`: state changes of the cluster's infrastructure and instances, oldest first. */
export async function infraEvents(db: Db, cluster: Cluster) {
  const rows = await db
    .select()
    .from(stateHistory)
    .where(
      and(
        eq(stateHistory.clusterId, cluster.id),
        inArray(stateHistory.objectType, ['cluster_infra', 'scheduler_instance', 'worker_instance']),
      ),
    )
    .orderBy(asc(stateHistory.created), asc(stateHistory.id))
    .limit(5000);
  return rows.map((r) => ({
    timestamp: isoTime(r.created),
    object_type: r.objectType,
    name: r.objectName,
    state: r.state,
    reason: r.reason,
  }));
}

/** `alerts`: what went wrong, from errored processes and the cluster itself (level 40 = error). */
export async function clusterAlerts(db: Db, cluster: Cluster) {
  const failed = await db
    .select()
    .from(clusterProcesses)
    .where(and(eq(clusterProcesses.clusterId, cluster.id), eq(clusterProcesses.state, 'error')))
    .orderBy(desc(clusterProcesses.stateUpdated))
    .limit(100);
  const alerts = failed.map((p) => ({
    level: 40,
    title: `${p.role === 'scheduler' ? 'Scheduler' : 'Worker'} ${p.name} failed`,
    message: p.stateReason || 'No reason was reported.',
    first_occurred: isoTime(p.stateUpdated),
  }));
  // The control loop backs off a cluster it cannot act on; users see why while it retries.
  if (cluster.reconcileError && cluster.reconcileFailingSince)
    alerts.unshift({
      level: 30,
      title: `Cumulus is retrying (attempt ${cluster.reconcileAttempts + 1})`,
      message: cluster.reconcileAt
        ? `${cluster.reconcileError} (next attempt at ${isoTime(cluster.reconcileAt)})`
        : cluster.reconcileError,
      first_occurred: isoTime(cluster.reconcileFailingSince),
    });
  if (cluster.state === 'error')
    alerts.unshift({
      level: 40,
      title: `Cluster ${cluster.name} failed`,
      message: cluster.stateReason,
      first_occurred: isoTime(cluster.stateUpdated),
    });
  return alerts;
}
