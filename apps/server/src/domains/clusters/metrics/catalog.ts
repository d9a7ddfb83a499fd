import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type Cluster,
  type Instance,
  instanceLogs,
  instances,
  stateHistory,
} from '../../../db/schema/index.js';
import { isEnded, isWantedInstance } from '../states.js';

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
  const machines = (await db.select().from(instances).where(eq(instances.clusterId, cluster.id))).filter(
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
  const records = await db
    .select({ objectId: stateHistory.objectId, state: stateHistory.state, created: stateHistory.created })
    .from(stateHistory)
    .where(
      and(
        eq(stateHistory.clusterId, clusterId),
        inArray(stateHistory.objectType, types),
        inArray(stateHistory.objectId, objectIds),
        lte(stateHistory.created, new Date((window.end + 1) * 1000)),
      ),
    )
    .orderBy(asc(stateHistory.created), asc(stateHistory.id));
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
  const stepMs = window.step * 1000;
  const rows = await db
    .select({
      instanceId: instanceLogs.instanceId,
      bucket: sql<number>`floor((${instanceLogs.timestampMs} - ${window.start * 1000}) / ${stepMs})::int`,
      n: sql<number>`count(*)::int`,
    })
    .from(instanceLogs)
    .where(
      and(
        eq(instanceLogs.clusterId, clusterId),
        inArray(
          instanceLogs.instanceId,
          machines.map((i) => i.id),
        ),
        gte(instanceLogs.timestampMs, window.start * 1000),
        lte(instanceLogs.timestampMs, window.end * 1000 + 999),
      ),
    )
    .groupBy(sql`1`, sql`2`);
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

/** The series summed (or maxed) point by point, then reduced over time. */
export function reduce(
  name: MetricName,
  series: Series[],
  overTime: 'max' | 'min' | 'avg' | 'sum' | 'last',
): number | null {
  const combined = new Map<number, number>();
  for (const s of series)
    for (const [t, v] of s.values) {
      const had = combined.get(t);
      combined.set(t, had === undefined ? v : METRICS[name].combine === 'sum' ? had + v : Math.max(had, v));
    }
  const values = [...combined.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
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
