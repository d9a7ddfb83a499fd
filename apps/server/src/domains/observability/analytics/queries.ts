import { and, count, desc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.js';
import {
  analyticsDurations,
  analyticsExceptions,
  analyticsProfiles,
  analyticsSamples,
  analyticsSpans,
  type Cluster,
  computations,
  daskSchedulers,
  taskGroups,
  type Workspace,
} from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { clusterEventsOf, clusterView, isEnded } from '../../clusters/index.js';
import {
  type PrefixRow,
  presentComputation,
  presentEvent,
  presentException,
  presentSample,
  presentScheduler,
  presentSpan,
  presentTaskPrefix,
} from './present.js';
import type { exceptionsQuery, pageQuery, summaryQuery, timeseriesQuery } from './schemas.js';

/** What a read covers: one cluster (all its schedulers) or one Dask scheduler. */
export type Scope = { kind: 'cluster'; id: number } | { kind: 'scheduler'; id: number };

type Scoped = { clusterId: AnyPgColumn; schedulerRef: AnyPgColumn };
const inScope = (scope: Scope, table: Scoped): SQL =>
  eq(scope.kind === 'cluster' ? table.clusterId : table.schedulerRef, scope.id);

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/** A scheduler by Dask's id, among the workspace's clusters; others are not found. */
export async function findScheduler(db: Db, account: Workspace, schedulerId: string) {
  const [row] = await db
    .select({ scheduler: daskSchedulers, cluster: { id: clusterView.id } })
    .from(daskSchedulers)
    .innerJoin(clusterView, eq(clusterView.id, daskSchedulers.clusterId))
    .where(and(eq(daskSchedulers.schedulerId, schedulerId), eq(clusterView.workspaceId, account.id)))
    .orderBy(desc(daskSchedulers.created))
    .limit(1);
  if (!row) throw notFound('Scheduler not found.');
  return row;
}

export async function listComputations(db: Db, scope: Scope, page: z.infer<typeof pageQuery>) {
  const found = await db
    .select({
      computation: computations,
      schedulerId: daskSchedulers.schedulerId,
      closed: daskSchedulers.closed,
      clusterState: clusterView.state,
    })
    .from(computations)
    .innerJoin(daskSchedulers, eq(daskSchedulers.id, computations.schedulerRef))
    .innerJoin(clusterView, eq(clusterView.id, computations.clusterId))
    .where(inScope(scope, computations))
    .orderBy(desc(computations.start), desc(computations.id))
    .limit(page.limit)
    .offset(page.offset);
  if (found.length === 0) return [];
  const ids = found.map((f) => f.computation.id);
  const prefixes = await db
    .select({
      computationId: taskGroups.computationId,
      prefix: taskGroups.prefix,
      seconds: sql<number>`sum(${taskGroups.computeSeconds})`.mapWith(Number),
    })
    .from(taskGroups)
    .where(inArray(taskGroups.computationId, ids))
    .groupBy(taskGroups.computationId, taskGroups.prefix)
    .orderBy(desc(sql`sum(${taskGroups.computeSeconds})`), taskGroups.prefix);
  const errors = await db
    .select({
      clusterId: analyticsExceptions.clusterId,
      computation: analyticsExceptions.computation,
      n: count(),
    })
    .from(analyticsExceptions)
    .where(
      and(
        inArray(analyticsExceptions.clusterId, [...new Set(found.map((f) => f.computation.clusterId))]),
        inArray(
          analyticsExceptions.computation,
          found.map((f) => f.computation.identifier),
        ),
      ),
    )
    .groupBy(analyticsExceptions.clusterId, analyticsExceptions.computation);
  const errorCount = new Map(errors.map((e) => [`${e.clusterId}/${e.computation}`, e.n]));
  return found.map(({ computation, schedulerId, closed, clusterState }) => {
    const mine = prefixes.filter((p) => p.computationId === computation.id);
    const live = closed === null && !isEnded(clusterState);
    return presentComputation(
      computation,
      { schedulerId, live },
      {
        prefixes: mine.map((p) => p.prefix),
        computeSeconds: mine.reduce((sum, p) => sum + p.seconds, 0),
        exceptions: errorCount.get(`${computation.clusterId}/${computation.identifier}`) ?? 0,
      },
    );
  });
}

/** Sums of a jsonb map column (`durations`, `states`) by task prefix, or over everything. */
async function sumMaps(db: Db, scope: Scope, column: 'durations' | 'states', prefixes?: string[]) {
  const where = and(inScope(scope, taskGroups), prefixes ? inArray(taskGroups.prefix, prefixes) : undefined);
  const found = await rows<{ prefix: string; key: string; total: number | string }>(
    db,
    sql`select ${prefixes ? taskGroups.prefix : sql`''`} as prefix, e.key, sum(e.value::float8) as total
      from ${taskGroups} cross join lateral jsonb_each_text(${sql.identifier(column)}) e
      where ${where} group by 1, 2 order by 1, 2`,
  );
  const byPrefix = new Map<string, Record<string, number>>();
  for (const r of found) {
    const map = byPrefix.get(r.prefix) ?? {};
    map[r.key] = Number(r.total);
    byPrefix.set(r.prefix, map);
  }
  return byPrefix;
}

/** `.../summary`: totals of the scope and its task prefixes, the most computing first. */
export async function summary(db: Db, scope: Scope, query: z.infer<typeof summaryQuery>) {
  const [totals] = await db
    .select({
      nComputations: count(),
      nTasks: sql<number>`coalesce(sum(${computations.nTasks}), 0)`.mapWith(Number),
      start: sql<Date | null>`min(${computations.start})`.mapWith(computations.start),
      stop: sql<Date | null>`max(${computations.stop})`.mapWith(computations.stop),
    })
    .from(computations)
    .where(inScope(scope, computations));
  const [nExceptions] = await db
    .select({ n: count() })
    .from(analyticsExceptions)
    .where(inScope(scope, analyticsExceptions));
  const computeSeconds = sql`coalesce(sum(${taskGroups.computeSeconds}), 0)`;
  const [groupTotals] = await db
    .select({
      computeSeconds: computeSeconds.mapWith(Number),
      nbytes: sql`coalesce(sum(${taskGroups.nbytes}), 0)`.mapWith(Number),
      nPrefixes: sql`count(distinct ${taskGroups.prefix})`.mapWith(Number),
    })
    .from(taskGroups)
    .where(inScope(scope, taskGroups));
  const top: PrefixRow[] = await db
    .select({
      prefix: taskGroups.prefix,
      n_groups: count(),
      n_tasks: sql<number>`coalesce(sum(${taskGroups.nTasks}), 0)`.mapWith(Number),
      compute_seconds: computeSeconds.mapWith(Number),
      nbytes: sql<number>`coalesce(sum(${taskGroups.nbytes}), 0)`.mapWith(Number),
      start: sql<Date | null>`min(${taskGroups.start})`.mapWith(taskGroups.start),
      stop: sql<Date | null>`max(${taskGroups.stop})`.mapWith(taskGroups.stop),
    })
    .from(taskGroups)
    .where(inScope(scope, taskGroups))
    .groupBy(taskGroups.prefix)
    .orderBy(desc(computeSeconds), taskGroups.prefix)
    .limit(query.task_prefix_limit);
  const names = top.map((p) => p.prefix);
  const durations = names.length ? await sumMaps(db, scope, 'durations', names) : new Map();
  const states = names.length ? await sumMaps(db, scope, 'states', names) : new Map();
  const overall = await sumMaps(db, scope, 'durations');
  return {
    n_computations: totals?.nComputations ?? 0,
    n_tasks: totals?.nTasks ?? 0,
    n_exceptions: nExceptions?.n ?? 0,
    n_task_prefixes: groupTotals?.nPrefixes ?? 0,
    start: isoTimeOrNull(totals?.start),
    stop: isoTimeOrNull(totals?.stop),
    compute_seconds: groupTotals?.computeSeconds ?? 0,
    nbytes: groupTotals?.nbytes ?? 0,
    durations: overall.get('') ?? {},
    task_prefixes: top.map((p) =>
      presentTaskPrefix(p, durations.get(p.prefix) ?? {}, states.get(p.prefix) ?? {}),
    ),
  };
}

/** Most points a series answers; a finer interval is widened to fit. */
export const MAX_POINTS = 2000;
/** Most series; smaller ones are summed into `other`. */
export const MAX_SERIES = 50;

/** `.../timeseries`: seconds of work per interval, by task prefix or action, and the gauges. */
/** A cluster's summary with the Dask schedulers it had, oldest first. */
export async function clusterSummary(db: Db, clusterId: number, query: z.infer<typeof summaryQuery>) {
  const [totals, schedulers] = await Promise.all([
    summary(db, { kind: 'cluster', id: clusterId }, query),
    db
      .select({ id: daskSchedulers.schedulerId })
      .from(daskSchedulers)
      .where(eq(daskSchedulers.clusterId, clusterId))
      .orderBy(daskSchedulers.created, daskSchedulers.id),
  ]);
  return { cluster_id: clusterId, scheduler_ids: schedulers.map((r) => r.id), ...totals };
}

export async function timeseries(db: Db, scope: Scope, query: z.infer<typeof timeseriesQuery>) {
  const action =
    query.duration_type === 'all' ? undefined : eq(analyticsDurations.action, query.duration_type);
  const where = and(inScope(scope, analyticsDurations), action);
  const [span] = await db
    .select({
      first: sql`min(extract(epoch from ${analyticsDurations.time}))`.mapWith(Number),
      last: sql`max(extract(epoch from ${analyticsDurations.time}))`.mapWith(Number),
    })
    .from(analyticsDurations)
    .where(where);
  const [sampleSpan] = await db
    .select({
      first: sql`min(extract(epoch from ${analyticsSamples.time}))`.mapWith(Number),
      last: sql`max(extract(epoch from ${analyticsSamples.time}))`.mapWith(Number),
    })
    .from(analyticsSamples)
    .where(inScope(scope, analyticsSamples));
  const widest = Math.max(
    span?.last ? span.last - span.first : 0,
    sampleSpan?.last ? sampleSpan.last - sampleSpan.first : 0,
  );
  const interval = Math.max(query.interval, Math.ceil(widest / MAX_POINTS));
  const bucket = (column: typeof analyticsDurations.time | typeof analyticsSamples.time) =>
    sql`floor(extract(epoch from ${column}) / ${interval}) * ${interval}`;
  const key =
    query.group_by === 'prefix'
      ? analyticsDurations.prefix
      : query.group_by === 'action'
        ? analyticsDurations.action
        : sql`'total'`;
  const points = await rows<{ bucket: number | string; key: string; seconds: number | string }>(
    db,
    sql`select ${bucket(analyticsDurations.time)} as bucket, ${key} as key, sum(${analyticsDurations.seconds}) as seconds
      from ${analyticsDurations} where ${where} group by 1, 2 order by 1, 2`,
  );
  const samples = await rows<Record<string, number | string>>(
    db,
    sql`select ${bucket(analyticsSamples.time)} as bucket, max(${analyticsSamples.nWorkers}) as n_workers,
        max(${analyticsSamples.threads}) as threads, max(${analyticsSamples.memory}) as memory,
        max(${analyticsSamples.nTasks}) as n_tasks, max(${analyticsSamples.processing}) as processing
      from ${analyticsSamples} where ${inScope(scope, analyticsSamples)} group by 1 order by 1`,
  );
  return {
    group_by: query.group_by,
    duration_type: query.duration_type,
    interval,
    series: toSeries(points),
    samples: samples.map(presentSample),
  };
}

function toSeries(points: Array<{ bucket: number | string; key: string; seconds: number | string }>) {
  const totals = new Map<string, number>();
  for (const p of points) totals.set(p.key, (totals.get(p.key) ?? 0) + Number(p.seconds));
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const kept = new Set(ranked.slice(0, MAX_SERIES).map(([name]) => name));
  const series = new Map<string, Map<number, number>>();
  for (const p of points) {
    const name = kept.has(p.key) ? p.key : 'other';
    const byBucket = series.get(name) ?? new Map<number, number>();
    const bucket = Number(p.bucket);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + Number(p.seconds));
    series.set(name, byBucket);
  }
  return [...series.entries()].map(([name, byBucket]) => ({
    name,
    total_seconds: [...byBucket.values()].reduce((a, b) => a + b, 0),
    points: [...byBucket.entries()].map(([bucket, seconds]) => ({
      time: isoTime(new Date(bucket * 1000)),
      seconds,
    })),
  }));
}

export async function listSpans(db: Db, clusterId: number, page: z.infer<typeof pageQuery>) {
  const found = await db
    .select()
    .from(analyticsSpans)
    .where(eq(analyticsSpans.clusterId, clusterId))
    .orderBy(desc(sql`coalesce(${analyticsSpans.start}, ${analyticsSpans.created})`), desc(analyticsSpans.id))
    .limit(page.limit)
    .offset(page.offset);
  return found.map(presentSpan);
}

export async function listEvents(db: Db, clusterId: number, page: z.infer<typeof pageQuery>) {
  const found = await clusterEventsOf(db, clusterId, 'analytics', page);
  return found.map(presentEvent);
}

/** `analytics/{ws}/exceptions/list`: the workspace's task exceptions, newest first. */
export async function listExceptions(db: Db, account: Workspace, query: z.infer<typeof exceptionsQuery>) {
  const found = await db
    .select({ exception: analyticsExceptions, schedulerId: daskSchedulers.schedulerId })
    .from(analyticsExceptions)
    .innerJoin(clusterView, eq(clusterView.id, analyticsExceptions.clusterId))
    .innerJoin(daskSchedulers, eq(daskSchedulers.id, analyticsExceptions.schedulerRef))
    .where(
      and(
        eq(clusterView.workspaceId, account.id),
        query.cluster !== undefined ? eq(clusterView.id, query.cluster) : undefined,
        query.scheduler !== undefined ? eq(daskSchedulers.schedulerId, query.scheduler) : undefined,
        query.since !== undefined ? gte(analyticsExceptions.time, new Date(query.since * 1000)) : undefined,
        query.user !== undefined ? eq(clusterView.creatorId, query.user) : undefined,
      ),
    )
    .orderBy(desc(analyticsExceptions.time), desc(analyticsExceptions.id))
    .limit(query.limit)
    .offset(query.offset);
  return found.map((f) => presentException(f.exception, f.schedulerId));
}

/** `analytics/{ws}/cluster/{id}`: what the cluster's schedulers reported, in brief. */
export async function clusterOverview(db: Db, cluster: Cluster) {
  const scope: Scope = { kind: 'cluster', id: cluster.id };
  const schedulers = await db
    .select()
    .from(daskSchedulers)
    .where(eq(daskSchedulers.clusterId, cluster.id))
    .orderBy(daskSchedulers.created, daskSchedulers.id);
  const [spans] = await db
    .select({ n: count() })
    .from(analyticsSpans)
    .where(eq(analyticsSpans.clusterId, cluster.id));
  const [sample] = await db
    .select()
    .from(analyticsSamples)
    .where(eq(analyticsSamples.clusterId, cluster.id))
    .orderBy(desc(analyticsSamples.time), desc(analyticsSamples.id))
    .limit(1);
  const [profile] = await db
    .select({ profile: analyticsProfiles, schedulerId: daskSchedulers.schedulerId })
    .from(analyticsProfiles)
    .innerJoin(daskSchedulers, eq(daskSchedulers.id, analyticsProfiles.schedulerRef))
    .where(eq(analyticsProfiles.clusterId, cluster.id))
    .orderBy(desc(analyticsProfiles.created), desc(analyticsProfiles.id))
    .limit(1);
  const totals = await summary(db, scope, { task_prefix_limit: 10 });
  return {
    id: cluster.id,
    name: cluster.name,
    state: cluster.state,
    created: isoTime(cluster.created),
    schedulers: schedulers.map(presentScheduler),
    n_computations: totals.n_computations,
    n_tasks: totals.n_tasks,
    n_exceptions: totals.n_exceptions,
    n_spans: spans?.n ?? 0,
    compute_seconds: totals.compute_seconds,
    start: totals.start,
    stop: totals.stop,
    task_prefixes: totals.task_prefixes,
    last_sample: sample ? presentSample(sample) : null,
    last_profile: profile
      ? {
          scheduler_id: profile.schedulerId,
          created: isoTime(profile.profile.created),
          n_workers: profile.profile.nWorkers,
          profile: profile.profile.profile,
        }
      : null,
  };
}
