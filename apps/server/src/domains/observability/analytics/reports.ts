import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  analyticsDurations,
  analyticsExceptions,
  analyticsProfiles,
  analyticsSamples,
  analyticsSpans,
  computations,
  daskSchedulers,
  hostMetrics,
  taskGroups,
} from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { findCluster, instanceByBackendId } from '../../clusters/index.js';
import { recordComputed } from '../../onboarding/index.js';
import type { MetricsReport, profileBody, SpanBody } from './report-schemas.js';

/**
 * Storing what schedulers report. A report is written in one transaction; computations and task
 * groups are upserted (a scheduler reports a group again whenever it changed), the rest appended.
 */

const fromEpoch = (seconds: number) => new Date(seconds * 1000);
const maybeEpoch = (seconds: number | null | undefined) => (seconds ? fromEpoch(seconds) : null);
/** `excluded.<column>`: the value the upsert tried to insert. */
const excluded = (column: string): SQL => sql.raw(`excluded."${column}"`);
const CHUNK = 500;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** Last one wins: an upsert statement may not name the same row twice. */
function lastByKey<T>(rows: T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

/** The scheduler's row (created by whichever call comes first), merging what it says about itself. */
export async function upsertScheduler(
  db: Db,
  clusterId: number,
  schedulerId: string,
  info: Record<string, unknown> = {},
  lastReport: Date | null = null,
): Promise<number> {
  const [row] = await db
    .insert(daskSchedulers)
    .values({ clusterId, schedulerId, info, lastReport })
    .onConflictDoUpdate({
      target: [daskSchedulers.clusterId, daskSchedulers.schedulerId],
      set: {
        info: sql`${daskSchedulers.info} || ${excluded('info')}`,
        lastReport: sql`coalesce(${excluded('last_report')}, ${daskSchedulers.lastReport})`,
      },
    })
    .returning({ id: daskSchedulers.id });
  return row!.id;
}

export async function closeScheduler(db: Db, clusterId: number, schedulerId: string, reason: string) {
  const ref = await upsertScheduler(db, clusterId, schedulerId);
  await db
    .update(daskSchedulers)
    .set({ closed: new Date(), closeReason: reason })
    .where(eq(daskSchedulers.id, ref));
}

/** An instance's host samples (`host` of a report), for the instance of the calling cluster. */
async function recordHost(db: Db, clusterId: number, host: NonNullable<MetricsReport['host']>) {
  const instance = await instanceByBackendId(db, clusterId, host.backend_id);
  if (!instance) throw notFound('Instance not found.');
  await db.insert(hostMetrics).values(
    host.samples.map((s) => ({
      clusterId,
      instanceId: instance.id,
      time: fromEpoch(s.time),
      scope: s.scope,
      cpu: s.cpu,
      memoryUsed: s.memory_used,
      memoryTotal: s.memory_total,
      netRx: s.net_rx,
      netTx: s.net_tx,
      diskRead: s.disk_read,
      diskWrite: s.disk_write,
      gpu: s.gpu ?? null,
      gpuMemoryUsed: s.gpu_memory_used ?? null,
      gpuMemoryTotal: s.gpu_memory_total ?? null,
    })),
  );
  return host.samples.length;
}

/** Host samples older than `retentionMs` go (the housekeeping loop); how many went. */
export async function pruneHostMetrics(db: Db, retentionMs: number): Promise<number> {
  const gone = await db
    .delete(hostMetrics)
    .where(sql`${hostMetrics.time} < ${new Date(Date.now() - retentionMs)}`)
    .returning({ id: hostMetrics.id });
  return gone.length;
}

export async function recordMetrics(db: Db, clusterId: number, report: MetricsReport) {
  const hostSamples = report.host ? await recordHost(db, clusterId, report.host) : 0;
  const ident = report.ident;
  if (ident === undefined)
    return {
      computations: 0,
      task_groups: 0,
      exceptions: 0,
      durations: 0,
      spans: 0,
      samples: 0,
      host_samples: hostSamples,
    };
  const time = report.time ? fromEpoch(report.time) : new Date();
  const info: Record<string, unknown> = {};
  if (report.plugins) info.plugins = report.plugins;
  if (report.idle_timeout !== undefined) info.idle_timeout = report.idle_timeout;
  if (report.tags) info.tags = report.tags;
  const recorded = await db.transaction(async (tx) => {
    const schedulerRef = await upsertScheduler(tx, clusterId, ident, info, time);
    const computationIds = await upsertComputations(tx, clusterId, schedulerRef, report.computations);
    const groups = await upsertTaskGroups(tx, clusterId, schedulerRef, computationIds, report.task_groups);
    await settleFinished(tx, [...computationIds.values()]);

    for (const chunk of chunks(report.exceptions)) {
      await tx.insert(analyticsExceptions).values(
        chunk.map((e) => ({
          clusterId,
          schedulerRef,
          computation: e.computation ?? null,
          taskKey: e.key,
          prefix: e.prefix ?? '',
          exception: e.exception ?? '',
          traceback: e.traceback ?? '',
          worker: e.worker ?? null,
          time: fromEpoch(e.time),
        })),
      );
    }
    const durations = report.durations.filter((d) => d.seconds > 0);
    for (const chunk of chunks(durations)) {
      await tx.insert(analyticsDurations).values(chunk.map((d) => ({ clusterId, schedulerRef, time, ...d })));
    }
    let samples = 0;
    if (report.n_workers !== undefined) {
      await tx.insert(analyticsSamples).values({
        clusterId,
        schedulerRef,
        time,
        nWorkers: report.n_workers,
        threads: report.threads ?? 0,
        memory: report.memory ?? 0,
        nTasks: report.n_tasks ?? 0,
        processing: report.processing ?? 0,
        waiting: report.waiting ?? 0,
        inMemory: report.in_memory ?? 0,
        workerMemory: report.worker_memory ?? 0,
        workerCpu: report.worker_cpu ?? 0,
        transferred: report.transferred ?? 0,
      });
      samples = 1;
    }
    for (const { identifier, span } of lastByKey(report.spans, (s) => s.identifier)) {
      await upsertSpan(tx, clusterId, identifier, { ident, ...span });
    }
    return {
      computations: computationIds.size,
      task_groups: groups,
      exceptions: report.exceptions.length,
      durations: durations.length,
      spans: report.spans.length,
      samples,
      host_samples: hostSamples,
    };
  });
  if (recorded.computations > 0) await tickComputeStep(db, clusterId);
  return recorded;
}

/** The first computation on a cluster ticks its creator's get-started "compute" step. */
async function tickComputeStep(db: Db, clusterId: number) {
  const cluster = await findCluster(db, clusterId);
  if (cluster?.creatorId) await recordComputed(db, cluster.creatorId, clusterId);
}

/** Upserts the reported computations; answers every id a group of this report may name. */
async function upsertComputations(
  tx: Db,
  clusterId: number,
  schedulerRef: number,
  reported: MetricsReport['computations'],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks(lastByKey(reported, (c) => c.id))) {
    const rows = await tx
      .insert(computations)
      .values(
        chunk.map((c) => ({
          clusterId,
          schedulerRef,
          identifier: c.id,
          start: fromEpoch(c.start),
          stop: maybeEpoch(c.stop),
          nTasks: c.n_tasks ?? 0,
          nGroups: c.n_groups ?? 0,
          states: c.states ?? {},
          code: c.code ?? '',
        })),
      )
      .onConflictDoUpdate({
        target: [computations.clusterId, computations.identifier],
        set: {
          stop: excluded('stop'),
          nTasks: excluded('n_tasks'),
          nGroups: excluded('n_groups'),
          states: excluded('states'),
          // Dask learns a computation's code as more of it is submitted.
          code: sql`case when ${excluded('code')} <> '' then ${excluded('code')} else ${computations.code} end`,
          updated: sql`now()`,
        },
      })
      .returning({ id: computations.id, identifier: computations.identifier });
    for (const r of rows) ids.set(r.identifier, r.id);
  }
  return ids;
}

/** Task states in which a task still has work ahead (the analytics preload's ACTIVE). */
export const ACTIVE_TASK_STATES = ['waiting', 'processing', 'no-worker', 'queued'];

/**
 * A computation is finished once all its task groups are, as the scheduler reported them: when
 * a report left its own `stop` empty (an earlier report said tasks were still active, and later
 * ones updated only its groups), the last group's stop becomes the computation's. Only when
 * every group it has is stored (`n_groups`), so a computation reported in parts is not cut short.
 */
async function settleFinished(tx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const active = sql.join(
    ACTIVE_TASK_STATES.map((state) => sql`${state}`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${computations} c
    set stop = g.last, updated = now()
    from (
      select ${taskGroups.computationId} as id,
             coalesce(max(coalesce(${taskGroups.stop}, ${taskGroups.start})), now()) as last,
             count(*) as n,
             bool_or(exists (
               select 1 from jsonb_each_text(${taskGroups.states}) s
               where s.key in (${active}) and s.value::numeric > 0
             )) as active
      from ${taskGroups}
      where ${inArray(taskGroups.computationId, ids)}
      group by ${taskGroups.computationId}
    ) g
    where c.id = g.id and c.stop is null and not g.active and g.n >= c.n_groups`);
}

async function upsertTaskGroups(
  tx: Db,
  clusterId: number,
  schedulerRef: number,
  computationIds: Map<string, number>,
  reported: MetricsReport['task_groups'],
): Promise<number> {
  // Groups of computations an earlier report already stored.
  const earlier = [...new Set(reported.map((g) => g.computation))].filter((c) => !computationIds.has(c));
  if (earlier.length > 0) {
    const rows = await tx
      .select({ id: computations.id, identifier: computations.identifier })
      .from(computations)
      .where(and(eq(computations.clusterId, clusterId), inArray(computations.identifier, earlier)));
    for (const r of rows) computationIds.set(r.identifier, r.id);
  }
  // A group of a computation never reported has nothing to belong to: it is dropped.
  const known = lastByKey(
    reported.filter((g) => computationIds.has(g.computation)),
    (g) => `${g.computation}\n${g.name}`,
  );
  for (const chunk of chunks(known)) {
    await tx
      .insert(taskGroups)
      .values(
        chunk.map((g) => ({
          computationId: computationIds.get(g.computation)!,
          clusterId,
          schedulerRef,
          name: g.name,
          prefix: g.prefix,
          start: maybeEpoch(g.start),
          stop: maybeEpoch(g.stop),
          computeSeconds: g.durations?.compute ?? 0,
          durations: g.durations ?? {},
          nbytes: g.nbytes ?? 0,
          nTasks: g.n_tasks ?? 0,
          states: g.states ?? {},
          types: g.types ?? [],
        })),
      )
      .onConflictDoUpdate({
        target: [taskGroups.computationId, taskGroups.name],
        set: Object.fromEntries(
          (
            [
              ['start', 'start'],
              ['stop', 'stop'],
              ['computeSeconds', 'compute_seconds'],
              ['durations', 'durations'],
              ['nbytes', 'nbytes'],
              ['nTasks', 'n_tasks'],
              ['states', 'states'],
              ['types', 'types'],
            ] as const
          ).map(([field, column]) => [field, excluded(column)]),
        ),
      });
  }
  return known.length;
}

/** Epoch seconds or ISO string to a date; anything else is no date. */
function spanTime(value: SpanBody['start']): Date | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? fromEpoch(value) : new Date(value);
}

/** Posting a span again (its stop, more fields) updates it; fields not sent keep their value. */
export async function upsertSpan(db: Db, clusterId: number, identifier: string, body: SpanBody) {
  const { name, start, stop, callstack, ident, ...rest } = body;
  const values = {
    clusterId,
    identifier,
    schedulerId: ident ?? null,
    name: name ?? null,
    start: spanTime(start),
    stop: spanTime(stop),
    callstack: callstack ?? null,
    data: rest,
  };
  const [row] = await db
    .insert(analyticsSpans)
    .values(values)
    .onConflictDoUpdate({
      target: [analyticsSpans.clusterId, analyticsSpans.identifier],
      set: {
        schedulerId: sql`coalesce(${excluded('scheduler_id')}, ${analyticsSpans.schedulerId})`,
        name: sql`coalesce(${excluded('name')}, ${analyticsSpans.name})`,
        start: sql`coalesce(${excluded('start')}, ${analyticsSpans.start})`,
        stop: sql`coalesce(${excluded('stop')}, ${analyticsSpans.stop})`,
        callstack: sql`coalesce(${excluded('callstack')}, ${analyticsSpans.callstack})`,
        data: sql`${analyticsSpans.data} || ${excluded('data')}`,
        updated: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function recordProfile(db: Db, clusterId: number, body: z.infer<typeof profileBody>) {
  return db.transaction(async (tx) => {
    const schedulerRef = await upsertScheduler(tx, clusterId, body.ident);
    await tx.insert(analyticsProfiles).values({
      clusterId,
      schedulerRef,
      nWorkers: body.n_workers ?? null,
      profile: body.profile,
    });
    return { ok: true };
  });
}
