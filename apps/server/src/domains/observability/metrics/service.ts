import type { Db } from '../../../db/client.js';
import type { Cluster } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import {
  clusterNotFound,
  clusterRecordCounts,
  findClusterBySlug,
  instancesOf,
  isAtRest,
  isEnded,
  logLineCount,
  processesOf,
  workspaceClusters,
} from '../../clusters/index.js';
import { acrossInstances, computeSeries, METRICS, type MetricName, reduce, windowFor } from './catalog.js';
import type { adhocQuery, seriesQuery, valueQuery } from './schemas.js';

const latest = (values: Array<[number, number]>) => values.at(-1)?.[1] ?? 0;

/** A cluster by workspace slug and id, for a signed link (no user to check access for). */
export async function clusterBySlug(db: Db, slug: string, clusterId: number): Promise<Cluster> {
  const cluster = await findClusterBySlug(db, slug, clusterId);
  if (!cluster) throw clusterNotFound();
  return cluster;
}

/** `GET metrics/account/{ws}/cluster/{id}`: the series of one metric over a window. */
export async function metricSeries(db: Db, cluster: Cluster, query: z.infer<typeof seriesQuery>) {
  const window = windowFor(cluster, query.start, query.end);
  const perInstance = await computeSeries(db, cluster, query.query, window, {
    instanceIds: query.instance_ids,
    scheduler: query.scheduler,
  });
  const series = query.by === 'cluster' ? acrossInstances(query.query, perInstance) : perInstance;
  if (query.sort) {
    const sign = query.sort === 'asc' ? 1 : -1;
    series.sort((a, b) => sign * (latest(a.values) - latest(b.values)));
  }
  const { unit, help } = METRICS[query.query];
  return { query: query.query, unit, help, ...window, series };
}

async function valueOver(
  db: Db,
  cluster: Cluster,
  name: MetricName,
  overTime: z.infer<typeof valueQuery>['over_time'],
  range: { start?: number | undefined; end?: number | undefined; scheduler?: boolean | undefined } = {},
) {
  const window = windowFor(cluster, range.start, range.end);
  const series = await computeSeries(db, cluster, name, window, { scheduler: range.scheduler });
  return { window, value: reduce(name, series, overTime) };
}

/** `GET .../cluster/{id}/value`: one number, the metric reduced over the window (`over_time`). */
export async function metricValue(db: Db, cluster: Cluster, query: z.infer<typeof valueQuery>) {
  const { window, value } = await valueOver(db, cluster, query.query, query.over_time, {
    start: query.start_ts,
    end: query.end_ts,
    scheduler: query.scheduler,
  });
  return {
    query: query.query,
    over_time: query.over_time,
    unit: METRICS[query.query].unit,
    value,
    start_ts: window.start,
    end_ts: window.end,
  };
}

/** `GET metrics/account/{ws}/adhoc`: one value per cluster of the workspace (those named, else the newest). */
export async function adhocMetric(db: Db, workspaceId: number, query: z.infer<typeof adhocQuery>) {
  const rows = await workspaceClusters(db, workspaceId, {
    ids: query.clusters,
    limit: query.clusters ? 500 : query.n_clusters,
  });
  const items = [];
  for (const cluster of rows) {
    const { value } = await valueOver(db, cluster, query.query, query.over_time);
    items.push({
      cluster_id: cluster.id,
      cluster_name: cluster.name,
      value,
      ...(query.set_tags && { tags: cluster.tags }),
    });
  }
  return {
    name: query.name,
    query: query.query,
    over_time: query.over_time,
    unit: query.unit ?? METRICS[query.query].unit,
    items,
  };
}

function countBy(rows: Array<{ key: string; n: number }>) {
  return Object.fromEntries(rows.map((r) => [r.key, r.n])) as Record<string, number>;
}

/** `GET .../cluster/{id}/debug-stuff`: what the control loop sees of the cluster, in counts. */
export async function debugStuff(db: Db, cluster: Cluster, setTags: boolean) {
  const [machines, { perInstance, processes, sources, events, stateChanges }] = await Promise.all([
    instancesOf(db, cluster.id),
    clusterRecordCounts(db, cluster.id),
  ]);
  const lines = new Map(perInstance.map((r) => [r.id, r.n]));
  const now = Date.now();
  return {
    cluster_id: cluster.id,
    name: cluster.name,
    state: cluster.state,
    desired_state: cluster.desiredState,
    infra_state: cluster.infraState,
    desired_workers: cluster.desiredWorkers,
    reconcile_at: isoTimeOrNull(cluster.reconcileAt),
    lease_until: isoTimeOrNull(cluster.leaseUntil),
    processes: countBy(processes),
    instances: machines.map((i) => ({
      id: i.id,
      name: i.name,
      role: i.role,
      state: i.state,
      desired_state: i.desiredState,
      launched_at: isoTimeOrNull(i.launchedAt),
      last_heartbeat: isoTimeOrNull(i.lastHeartbeat),
      heartbeat_age_seconds: i.lastHeartbeat ? Math.round((now - i.lastHeartbeat.getTime()) / 1000) : null,
      released_at: isoTimeOrNull(i.releasedAt),
      log_lines: lines.get(i.id) ?? 0,
    })),
    log_lines: countBy(sources),
    events: countBy(events),
    state_changes: stateChanges,
    ...(setTags && { tags: cluster.tags }),
  };
}

/** `GET metrics/account/{ws}/id/{id}/summary-metrics`: the cluster's life in a few numbers. */
export async function summaryMetrics(db: Db, cluster: Cluster, metricsUrl: string) {
  const [machines, processes, logs, peak] = await Promise.all([
    instancesOf(db, cluster.id),
    processesOf(db, cluster.id),
    logLineCount(db, cluster.id),
    valueOver(db, cluster, 'workers', 'max'),
  ]);
  const now = Date.now();
  const end = isAtRest(cluster.state) ? cluster.stateUpdated.getTime() : now;
  const heartbeats = machines.flatMap((i) => (i.lastHeartbeat ? [i.lastHeartbeat.getTime()] : []));
  return {
    cluster_id: cluster.id,
    state: cluster.state,
    uptime_seconds: Math.max(0, Math.round((end - cluster.created.getTime()) / 1000)),
    desired_workers: cluster.desiredWorkers,
    started_workers: processes.filter((p) => p.role === 'worker' && p.state === 'started').length,
    peak_workers: peak.value ?? 0,
    running_instances: machines.filter((i) => i.launchedAt && !i.releasedAt && !isEnded(i.state)).length,
    total_instances: machines.length,
    instance_seconds: Math.round(
      machines.reduce(
        (sum, i) =>
          i.launchedAt ? sum + ((i.releasedAt?.getTime() ?? now) - i.launchedAt.getTime()) / 1000 : sum,
        0,
      ),
    ),
    failed_processes: processes.filter((p) => p.state === 'error').length,
    log_lines: logs,
    last_heartbeat: heartbeats.length ? isoTime(new Date(Math.max(...heartbeats))) : null,
    metrics_url: metricsUrl,
  };
}
