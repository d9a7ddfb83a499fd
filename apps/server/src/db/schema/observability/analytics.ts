import {
  bigint,
  bigserial,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { clusters, instances } from '../clusters/clusters.js';
import { createdAt, tstz } from '../columns.js';

/**
 * What cluster schedulers report about the work they ran (the `analytics/*` cluster-facing calls):
 * computations with their task groups, exceptions, periodic samples and spans. Every row belongs
 * to a cluster and goes with it.
 */
const clusterId = () =>
  integer('cluster_id')
    .notNull()
    .references(() => clusters.id, { onDelete: 'cascade' });

/** A Dask scheduler of a cluster, by the id Dask gives it (`Scheduler-<uuid>`). */
export const daskSchedulers = pgTable(
  'dask_schedulers',
  {
    id: serial('id').primaryKey(),
    clusterId: clusterId(),
    schedulerId: varchar('scheduler_id', { length: 200 }).notNull(),
    /** What `analytics/register` said: versions, python_version, hostname... */
    info: jsonb('info').$type<Record<string, unknown>>().notNull().default({}),
    closed: tstz('closed'),
    closeReason: text('close_reason').notNull().default(''),
    lastReport: tstz('last_report'),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('dask_schedulers_cluster_scheduler_key').on(t.clusterId, t.schedulerId),
    index('dask_schedulers_scheduler_idx').on(t.schedulerId),
  ],
);

const schedulerRef = () =>
  integer('scheduler_ref')
    .notNull()
    .references(() => daskSchedulers.id, { onDelete: 'cascade' });

/** One `compute`/`persist` call as the scheduler saw it; `identifier` is Dask's computation id. */
export const computations = pgTable(
  'analytics_computations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    identifier: varchar('identifier', { length: 64 }).notNull(),
    start: tstz('start').notNull(),
    stop: tstz('stop'),
    nTasks: integer('n_tasks').notNull().default(0),
    nGroups: integer('n_groups').notNull().default(0),
    states: jsonb('states').$type<Record<string, number>>().notNull().default({}),
    /** The client code that asked for it, when Dask captured it (first block, truncated). */
    code: text('code').notNull().default(''),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('analytics_computations_cluster_identifier_key').on(t.clusterId, t.identifier),
    index('analytics_computations_cluster_start_idx').on(
      t.clusterId,
      t.start.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('analytics_computations_scheduler_start_idx').on(
      t.schedulerRef,
      t.start.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** A Dask task group (`inc-<token>`) of a computation, with its prefix (`inc`) and durations. */
export const taskGroups = pgTable(
  'analytics_task_groups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    computationId: bigint('computation_id', { mode: 'number' })
      .notNull()
      .references(() => computations.id, { onDelete: 'cascade' }),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    name: varchar('name', { length: 300 }).notNull(),
    prefix: varchar('prefix', { length: 200 }).notNull(),
    start: tstz('start'),
    stop: tstz('stop'),
    /** Seconds computing, and seconds of every action (compute, transfer, disk-read...). */
    computeSeconds: doublePrecision('compute_seconds').notNull().default(0),
    durations: jsonb('durations').$type<Record<string, number>>().notNull().default({}),
    nbytes: bigint('nbytes', { mode: 'number' }).notNull().default(0),
    nTasks: integer('n_tasks').notNull().default(0),
    states: jsonb('states').$type<Record<string, number>>().notNull().default({}),
    types: jsonb('types').$type<string[]>().notNull().default([]),
  },
  (t) => [
    uniqueIndex('analytics_task_groups_computation_name_key').on(t.computationId, t.name),
    index('analytics_task_groups_cluster_prefix_idx').on(t.clusterId, t.prefix),
    index('analytics_task_groups_scheduler_prefix_idx').on(t.schedulerRef, t.prefix),
  ],
);

/** A task that raised; its dependents, which fail because of it, are not repeated. */
export const analyticsExceptions = pgTable(
  'analytics_exceptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    computation: varchar('computation', { length: 64 }),
    taskKey: varchar('task_key', { length: 500 }).notNull(),
    prefix: varchar('prefix', { length: 200 }).notNull().default(''),
    exception: text('exception').notNull().default(''),
    traceback: text('traceback').notNull().default(''),
    worker: varchar('worker', { length: 300 }),
    time: tstz('time').notNull(),
  },
  (t) => [
    index('analytics_exceptions_cluster_time_idx').on(t.clusterId, t.time.desc().nullsFirst()),
    index('analytics_exceptions_scheduler_time_idx').on(t.schedulerRef, t.time.desc().nullsFirst()),
  ],
);

/** The scheduler's gauges at one report: workers, threads, memory, tasks. */
export const analyticsSamples = pgTable(
  'analytics_samples',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    time: tstz('time').notNull(),
    nWorkers: integer('n_workers').notNull(),
    threads: integer('threads').notNull(),
    memory: bigint('memory', { mode: 'number' }).notNull(),
    nTasks: integer('n_tasks').notNull(),
    processing: integer('processing').notNull(),
    /** Tasks waiting for their dependencies (or a worker), and tasks whose results are in memory. */
    waiting: integer('waiting').notNull().default(0),
    inMemory: integer('in_memory').notNull().default(0),
    /** The workers' processes: resident memory (bytes) and CPU (percent of one core, summed). */
    workerMemory: bigint('worker_memory', { mode: 'number' }).notNull().default(0),
    workerCpu: doublePrecision('worker_cpu').notNull().default(0),
    /** Bytes the workers moved between them since the scheduler's previous report. */
    transferred: bigint('transferred', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('analytics_samples_cluster_time_idx').on(t.clusterId, t.time),
    index('analytics_samples_scheduler_time_idx').on(t.schedulerRef, t.time),
  ],
);

/** Seconds a task prefix spent on an action since the scheduler's previous report. */
export const analyticsDurations = pgTable(
  'analytics_durations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    time: tstz('time').notNull(),
    prefix: varchar('prefix', { length: 200 }).notNull(),
    action: varchar('action', { length: 32 }).notNull(),
    seconds: doublePrecision('seconds').notNull(),
  },
  (t) => [
    index('analytics_durations_cluster_time_idx').on(t.clusterId, t.action, t.time),
    index('analytics_durations_scheduler_time_idx').on(t.schedulerRef, t.action, t.time),
  ],
);

/** A named stretch of work: posted by clients (user calls) or from the cluster, upserted by identifier. */
export const analyticsSpans = pgTable(
  'analytics_spans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    identifier: varchar('identifier', { length: 200 }).notNull(),
    schedulerId: varchar('scheduler_id', { length: 200 }),
    name: varchar('name', { length: 300 }),
    start: tstz('start'),
    stop: tstz('stop'),
    callstack: jsonb('callstack').$type<unknown>(),
    /** The body as posted (bounded), for fields this server does not interpret. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('analytics_spans_cluster_identifier_key').on(t.clusterId, t.identifier),
    index('analytics_spans_cluster_start_idx').on(t.clusterId, t.start),
  ],
);

/** A Dask profile (the call tree workers sampled), as the scheduler posted it. */
export const analyticsProfiles = pgTable(
  'analytics_profiles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    schedulerRef: schedulerRef(),
    nWorkers: integer('n_workers'),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull(),
    created: createdAt(),
  },
  (t) => [index('analytics_profiles_cluster_created_idx').on(t.clusterId, t.created.desc().nullsFirst())],
);

export type DaskScheduler = typeof daskSchedulers.$inferSelect;
export type Computation = typeof computations.$inferSelect;

/**
 * What an instance's agent measured of its machine every few seconds (`analytics/metrics`,
 * `host`): CPU, memory, network and disk from /proc, GPU from nvidia-smi when there is one.
 * Rates are per second over the sample's interval. Old rows go (CUMULUS_HOST_METRICS_RETENTION_DAYS).
 */
export const hostMetrics = pgTable(
  'host_metrics',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: clusterId(),
    instanceId: integer('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    time: tstz('time').notNull(),
    /** What `cpu`, `memory_used` and the disk rates measure: `host` (the machine) or `processes`
     * (the instance's own process tree, where instances share a machine). Network and GPU: the host's. */
    scope: varchar('scope', { length: 16 }).notNull().default('host'),
    /** Percent of all the machine's cores. */
    cpu: doublePrecision('cpu').notNull(),
    memoryUsed: bigint('memory_used', { mode: 'number' }).notNull(),
    memoryTotal: bigint('memory_total', { mode: 'number' }).notNull(),
    netRx: doublePrecision('net_rx').notNull(),
    netTx: doublePrecision('net_tx').notNull(),
    diskRead: doublePrecision('disk_read').notNull(),
    diskWrite: doublePrecision('disk_write').notNull(),
    /** Percent, averaged over the machine's GPUs; null without a GPU. */
    gpu: doublePrecision('gpu'),
    gpuMemoryUsed: bigint('gpu_memory_used', { mode: 'number' }),
    gpuMemoryTotal: bigint('gpu_memory_total', { mode: 'number' }),
  },
  (t) => [
    index('host_metrics_cluster_time_idx').on(t.clusterId, t.time),
    index('host_metrics_time_idx').on(t.time),
  ],
);
