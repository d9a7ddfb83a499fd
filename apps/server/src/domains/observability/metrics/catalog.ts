import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.js';
import {
  analyticsDurations,
  analyticsSamples,
  type Cluster,
  hostMetrics,
  type Instance,
} from '../../../db/schema/index.js';
import {
  instancesOf,
  isEnded,
  isWantedInstance,
  logLinesPerStep,
  stateChanges,
} from '../../clusters/index.js';

/**
 * The metrics Cumulus answers, computed from what the control plane records (there is no
 * Prometheus): state history gives worker and instance counts over time, shipped log lines
 * give their rate, heartbeats give how long ago each instance was heard from.
 */
export const METRICS = {
  workers: { unit: 'workers', combine: 'sum', help: 'Workers started (process state `started`).' },
  instances: {
    unit: 'instances',
    combine: 'sum',
    help: 'Instances launched and not yet stopped (state starting, started or ready), per role.',
  },
  log_lines: { unit: 'lines/minute', combine: 'sum', help: 'Log lines shipped per minute, per instance.' },
  heartbeat_age: {
    unit: 'seconds',
    combine: 'max',
    help: 'Seconds since each live instance last phoned home (one point, now).',
  },
  cpu: {
    unit: 'percent',
    combine: 'avg',
    help: "CPU busy, percent of the machine's cores, per instance (`scope` label: `processes`, the instance's own, or `host`).",
  },
  memory: {
    unit: 'bytes',
    combine: 'sum',
    help: "Memory in use, per instance (`scope`: its processes' resident memory, or the host's; `total`: the machine's size).",
  },
  network: {
    unit: 'bytes/second',
    combine: 'sum',
    help: "Network traffic of each instance's machine, per direction (`receive`, `send`); host-wide.",
  },
  disk: {
    unit: 'bytes/second',
    combine: 'sum',
    help: 'Disk traffic, per instance and direction (`read`, `write`; `scope` as for CPU).',
  },
  gpu: {
    unit: 'percent',
    combine: 'avg',
    help: "GPU busy, per instance with a GPU (its machine's; host-wide).",
  },
  gpu_memory: {
    unit: 'bytes',
    combine: 'sum',
    help: "GPU memory in use, per instance with a GPU (its machine's; host-wide).",
  },
  tasks: {
    unit: 'tasks',
    combine: 'sum',
    help: "The scheduler's tasks by state (`processing`, `waiting`, `memory`).",
  },
  worker_memory: { unit: 'bytes', combine: 'sum', help: "The Dask workers' memory (their processes)." },
  worker_cpu: {
    unit: 'percent',
    combine: 'sum',
    help: "The Dask workers' CPU, percent of one core, summed over workers.",
  },
  transferred: {
    unit: 'bytes/second',
    combine: 'sum',
    help: 'Bytes Dask workers moved between them.',
  },
  task_seconds: {
    unit: 'seconds',
    combine: 'sum',
    help: 'Seconds tasks spent computing, per task prefix (the ten busiest).',
  },
} as const;
export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as [MetricName, ...MetricName[]];

export interface Window {
  /** Epoch seconds. */
  start: number;
  end: number;
  step: number;
}

export interface Selection {
  instanceIds?: number[] | undefined;
  /** Only the scheduler's instance (per-instance metrics). */
  scheduler?: boolean | undefined;
}

export interface Series {
  metric: Record<string, string>;
  /** [epoch seconds, value] */
  values: Array<[number, number]>;
}

const MAX_POINTS = 500;

/** The window asked for, within the cluster's life, in steps of at least 15 s and at most 500 points. */
export function windowFor(cluster: Cluster, start?: number, end?: number): Window {
  const born = Math.floor(cluster.created.getTime() / 1000);
  const last = isEnded(cluster.state) ? Math.ceil(cluster.stateUpdated.getTime() / 1000) : Date.now() / 1000;
  const to = Math.floor(Math.min(end ?? last, Date.now() / 1000));
  const from = Math.floor(Math.max(start ?? born, to - 90 * 86_400));
  const span = Math.max(0, to - from);
  return { start: from, end: Math.max(from, to), step: Math.max(15, Math.ceil(span / MAX_POINTS)) };
}

const points = (w: Window) => {
  const out: number[] = [];
  for (let t = w.start; t <= w.end; t += w.step) out.push(t);
  if (out.at(-1) !== w.end) out.push(w.end);
  return out;
};

export async function computeSeries(
  db: Db,
  cluster: Cluster,
  name: MetricName,
  window: Window,
  selection: Selection,
): Promise<Series[]> {
  const machines = (await instancesOf(db, cluster.id)).filter(
    (i) =>
      (!selection.instanceIds || selection.instanceIds.includes(i.id)) &&
      (!selection.scheduler || i.role === 'scheduler'),
  );
  switch (name) {
    case 'workers': {
      const processIds = machines.filter((i) => i.role === 'worker').map((i) => i.processId);
      return [
        {
          metric: { name },
          values: await countOverTime(db, cluster.id, ['worker'], processIds, ['started'], window),
        },
      ];
    }
    case 'instances': {
      const live = ['starting', 'started', 'ready'];
      return Promise.all(
        (['scheduler', 'worker'] as const).map(async (role) => ({
          metric: { name, role },
          values: await countOverTime(
            db,
            cluster.id,
            [`${role}_instance`],
            machines.filter((i) => i.role === role).map((i) => i.id),
            live,
            window,
          ),
        })),
      );
    }
    case 'log_lines':
      return logRates(db, cluster.id, machines, window);
    case 'cpu':
    case 'memory':
    case 'network':
    case 'disk':
    case 'gpu':
    case 'gpu_memory':
      return hostSeries(db, cluster.id, machines, name, window);
    case 'tasks':
    case 'worker_memory':
    case 'worker_cpu':
    case 'transferred':
      return daskSeries(db, cluster.id, name, window);
    case 'task_seconds':
      return prefixSeconds(db, cluster.id, window);
    case 'heartbeat_age': {
      const now = Date.now();
      return machines
        .filter((i) => i.launchedAt && isWantedInstance(i))
        .map((i) => ({
          metric: { name, instance: i.name, instance_id: String(i.id), role: i.role },
          values: [
            [
              Math.floor(now / 1000),
              Math.round((now - (i.lastHeartbeat ?? i.launchedAt!).getTime()) / 100) / 10,
            ] as [number, number],
          ],
        }));
    }
  }
}

/** How many of the objects were in one of `states` at each point, replaying their state history. */
async function countOverTime(
  db: Db,
  clusterId: number,
  types: Array<'worker' | 'scheduler_instance' | 'worker_instance'>,
  objectIds: number[],
  states: string[],
  window: Window,
): Promise<Array<[number, number]>> {
  const at = points(window);
  if (objectIds.length === 0) return at.map((t) => [t, 0]);
  const records = await stateChanges(db, clusterId, types, objectIds, new Date((window.end + 1) * 1000));
  const current = new Map<number, string>();
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const t of at) {
    // Points are whole seconds: a change during second t counts at t (the last point is "now").
    while (next < records.length && records[next]!.created.getTime() < (t + 1) * 1000) {
      current.set(records[next]!.objectId, records[next]!.state);
      next++;
    }
    out.push([t, [...current.values()].filter((s) => states.includes(s)).length]);
  }
  return out;
}

async function logRates(db: Db, clusterId: number, machines: Instance[], window: Window): Promise<Series[]> {
  if (machines.length === 0) return [];
  const rows = await logLinesPerStep(
    db,
    clusterId,
    machines.map((i) => i.id),
    { startMs: window.start * 1000, endMs: window.end * 1000 + 999, stepMs: window.step * 1000 },
  );
  const perMinute = 60 / window.step;
  const at = points(window);
  return machines.map((i) => {
    const counts = new Map(rows.filter((r) => r.instanceId === i.id).map((r) => [r.bucket, r.n]));
    return {
      metric: { name: 'log_lines', instance: i.name, instance_id: String(i.id), role: i.role },
      values: at.map((t, k) => [t, Math.round((counts.get(k) ?? 0) * perMinute * 100) / 100]),
    };
  });
}

/** Which bucket of the window (of `step` seconds) a time column falls in: downsampling for long ranges. */
const bucketOf = (column: PgColumn, window: Window) =>
  sql<number>`floor((extract(epoch from ${column}) - ${window.start}) / ${window.step})::int`;
const inWindow = (column: PgColumn, window: Window) =>
  and(gte(column, new Date(window.start * 1000)), lte(column, new Date(window.end * 1000 + 999)));
const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

type HostMetric = 'cpu' | 'memory' | 'network' | 'disk' | 'gpu' | 'gpu_memory';
const HOST_COLUMNS: Record<HostMetric, Array<[string | null, SQL]>> = {
  cpu: [[null, sql`avg(${hostMetrics.cpu})`]],
  memory: [[null, sql`avg(${hostMetrics.memoryUsed})`]],
  network: [
    ['receive', sql`avg(${hostMetrics.netRx})`],
    ['send', sql`avg(${hostMetrics.netTx})`],
  ],
  disk: [
    ['read', sql`avg(${hostMetrics.diskRead})`],
    ['write', sql`avg(${hostMetrics.diskWrite})`],
  ],
  gpu: [[null, sql`avg(${hostMetrics.gpu})`]],
  gpu_memory: [[null, sql`avg(${hostMetrics.gpuMemoryUsed})`]],
};

/** The host metrics a sample's `scope` applies to (the agent measures its process tree for these). */
const SCOPED: HostMetric[] = ['cpu', 'memory', 'disk'];

/**
 * The agents' samples of each instance, averaged per step of the window (a day of 5-second
 * samples comes back as at most 500 points). Only buckets with samples have points.
 */
async function hostSeries(
  db: Db,
  clusterId: number,
  machines: Instance[],
  name: HostMetric,
  window: Window,
): Promise<Series[]> {
  if (machines.length === 0) return [];
  const columns = HOST_COLUMNS[name];
  const gpuOnly = name === 'gpu' || name === 'gpu_memory';
  const rows = await db
    .select({
      instanceId: hostMetrics.instanceId,
      bucket: bucketOf(hostMetrics.time, window),
      scope: sql<string>`max(${hostMetrics.scope})`,
      total: sql<
        number | null
      >`max(${name === 'gpu_memory' ? hostMetrics.gpuMemoryTotal : hostMetrics.memoryTotal})::float8`,
      ...Object.fromEntries(columns.map(([, expr], k) => [`v${k}`, sql<number | null>`(${expr})::float8`])),
    })
    .from(hostMetrics)
    .where(
      and(
        eq(hostMetrics.clusterId, clusterId),
        inArray(
          hostMetrics.instanceId,
          machines.map((i) => i.id),
        ),
        inWindow(hostMetrics.time, window),
        gpuOnly ? sql`${hostMetrics.gpu} is not null` : undefined,
      ),
    )
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`1`, sql`2`);
  const out: Series[] = [];
  for (const i of machines) {
    const own = rows.filter((r) => r.instanceId === i.id);
    if (own.length === 0) continue;
    // What the figures are of: the instance's own processes, or its machine (network and GPU always).
    const scope = SCOPED.includes(name) ? own.at(-1)!.scope : 'host';
    const mine = own as unknown as Array<Record<string, number | null>>;
    columns.forEach(([direction], k) => {
      const metric: Record<string, string> = {
        name,
        instance: i.name,
        instance_id: String(i.id),
        role: i.role,
        scope,
      };
      if (direction) metric.direction = direction;
      const total = mine.at(-1)?.total;
      if ((name === 'memory' || name === 'gpu_memory') && total) metric.total = String(total);
      out.push({
        metric,
        values: mine
          .filter((r) => r[`v${k}`] !== null)
          .map((r) => [window.start + r.bucket! * window.step, round(r[`v${k}`]!)] as [number, number]),
      });
    });
  }
  return out;
}

type DaskMetric = 'tasks' | 'worker_memory' | 'worker_cpu' | 'transferred';

/** The scheduler's gauges (analytics samples), averaged per step; `transferred` summed per second. */
async function daskSeries(db: Db, clusterId: number, name: DaskMetric, window: Window): Promise<Series[]> {
  const s = analyticsSamples;
  const columns: Array<[Record<string, string>, SQL]> =
    name === 'tasks'
      ? [
          [{ state: 'processing' }, sql`avg(${s.processing})`],
          [{ state: 'waiting' }, sql`avg(${s.waiting})`],
          [{ state: 'memory' }, sql`avg(${s.inMemory})`],
        ]
      : name === 'worker_memory'
        ? [[{}, sql`avg(${s.workerMemory})`]]
        : name === 'worker_cpu'
          ? [[{}, sql`avg(${s.workerCpu})`]]
          : [[{}, sql`sum(${s.transferred})::float8 / ${window.step}`]];
  const rows = (await db
    .select({
      bucket: bucketOf(s.time, window),
      ...Object.fromEntries(columns.map(([, expr], k) => [`v${k}`, sql<number>`(${expr})::float8`])),
    })
    .from(s)
    .where(and(eq(s.clusterId, clusterId), inWindow(s.time, window)))
    .groupBy(sql`1`)
    .orderBy(sql`1`)) as Array<Record<string, number>>;
  return columns.map(([labels], k) => ({
    metric: { name, ...labels },
    values: rows.map((r) => [window.start + r.bucket! * window.step, round(r[`v${k}`]!)] as [number, number]),
  }));
}

/** Seconds of `compute` per task prefix and step, for the ten prefixes that computed longest. */
async function prefixSeconds(db: Db, clusterId: number, window: Window): Promise<Series[]> {
  const d = analyticsDurations;
  const rows = await db
    .select({
      prefix: d.prefix,
      bucket: bucketOf(d.time, window),
      seconds: sql<number>`sum(${d.seconds})::float8`,
    })
    .from(d)
    .where(and(eq(d.clusterId, clusterId), eq(d.action, 'compute'), inWindow(d.time, window)))
    .groupBy(sql`1`, sql`2`)
    .orderBy(sql`2`);
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.prefix, (totals.get(r.prefix) ?? 0) + r.seconds);
  const busiest = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
  return busiest.map(([prefix]) => ({
    metric: { name: 'task_seconds', prefix },
    values: rows
      .filter((r) => r.prefix === prefix)
      .map((r) => [window.start + r.bucket * window.step, round(r.seconds, 3)] as [number, number]),
  }));
}

const combine = (how: string, values: number[]) =>
  how === 'sum'
    ? values.reduce((a, b) => a + b, 0)
    : how === 'max'
      ? Math.max(...values)
      : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Per-instance series as one cluster-wide series per direction: summed (memory, traffic), averaged
 * (CPU, GPU) or maxed point by point, as the metric combines. Labelled `instance: cluster` with
 * how many instances it covers; series of no instance (Dask's) are kept as they are.
 */
export function acrossInstances(name: MetricName, series: Series[]): Series[] {
  const groups = new Map<string, Series[]>();
  const kept: Series[] = [];
  for (const s of series) {
    if (s.metric.instance === undefined) kept.push(s);
    else {
      const key = s.metric.direction ?? '';
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
  }
  const how: string = METRICS[name].combine;
  const combined = [...groups.entries()].map(([direction, members]) => {
    const at = new Map<number, number[]>();
    for (const s of members) for (const [t, v] of s.values) at.set(t, [...(at.get(t) ?? []), v]);
    const metric: Record<string, string> = { name, instance: 'cluster', instances: String(members.length) };
    if (direction) metric.direction = direction;
    const scopes = new Set(members.map((s) => s.metric.scope));
    if (scopes.size === 1 && members[0]!.metric.scope) metric.scope = members[0]!.metric.scope;
    const totals = members.map((s) => Number(s.metric.total)).filter((v) => v > 0);
    if (totals.length) metric.total = String(totals.reduce((a, b) => a + b, 0));
    return {
      metric,
      values: [...at.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([t, vs]) => [t, round(combine(how, vs))] as [number, number]),
    };
  });
  return [...combined, ...kept];
}

/** The series summed (or maxed) point by point, then reduced over time. */
export function reduce(
  name: MetricName,
  series: Series[],
  overTime: 'max' | 'min' | 'avg' | 'sum' | 'last',
): number | null {
  const combined = new Map<number, number[]>();
  for (const s of series) for (const [t, v] of s.values) combined.set(t, [...(combined.get(t) ?? []), v]);
  const how: string = METRICS[name].combine;
  const values = [...combined.entries()].sort((a, b) => a[0] - b[0]).map(([, vs]) => combine(how, vs));
  if (values.length === 0) return null;
  switch (overTime) {
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'avg':
      return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;
    case 'last':
      return values.at(-1)!;
  }
}
