import { id, text, z } from '../../../http/zod.js';
import { jsonObject } from '../../clusters/index.js';

/** What the scheduler preload sends (register, events, close); unknown keys are dropped, sizes bounded. */
export const registerBody = z.object({
  scheduler_id: text(200),
  account: text(64).optional(),
  versions: jsonObject(16 * 1024).optional(),
  python_version: text(50).optional(),
  OS: text(50).optional(),
  hostname: text(255).optional(),
  architecture: text(50).optional(),
  idle_timeout: z.union([z.number(), text(50)]).nullish(),
  extensions: z.array(text(200)).max(100).optional(),
  preloads: z.array(text(500)).max(50).optional(),
  scheduler_plugins: z.array(text(200)).max(100).optional(),
});

export const eventsBody = z.object({
  ident: text(200).optional(),
  events: z
    .array(
      z.object({
        name: text(200).optional(),
        message: text(5000).optional(),
        created: z.number().optional(),
        action: text(200).optional(),
        worker: text(300).nullish(),
      }),
    )
    .max(1000),
});

export const closeBody = z.object({
  ident: text(200).optional(),
  scheduler_id: text(200).optional(),
  account: text(64).optional(),
  cluster_type: text(50).optional(),
  reason: text(2000).optional(),
});

export const analyticsListQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** Epoch seconds; clusters created since then. */
  since: z.coerce.number().min(0).max(1e11).optional(),
  user: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

export const desiredStateParams = z.object({ account: text(64), cluster: id });
export const desiredStateBody = z.object({
  desired_status: z.enum(['running', 'ready', 'stopped', 'paused']),
  reason: text(2000).optional(),
});

export const analyticsClusterSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created: z.string(),
  state: z.string(),
  creator: z.string().nullable(),
  scheduler_id: z.string().nullable(),
  n_workers: z.number().int(),
  idle_timeout: z.number().int(),
});

// What users read of their clusters' analytics (`analytics/{ws}/...` with a session or API token);
// lists are bare arrays, newest first.

export const clusterParams = z.object({ account: text(64), cluster: id });
export const clusterIdParams = z.object({ account: text(64), cluster_id: id });
export const schedulerParams = z.object({ account: text(64), scheduler_id: text(200).min(1) });
export const daskSchedulerParams = z.object({ account: text(64), dask_scheduler: text(200).min(1) });
export const spanParams = clusterParams.extend({ span_identifier: text(200).min(1) });

export const pageQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const summaryQuery = z.object({
  /** How many task prefixes to detail, those that computed longest first. */
  task_prefix_limit: z.coerce.number().int().min(1).max(1000).default(50),
});

/** Actions Dask times tasks by (`TaskPrefix.all_durations`); `all` sums them. */
export const DURATION_TYPES = [
  'compute',
  'transfer',
  'disk-read',
  'disk-write',
  'deserialize',
  'all',
] as const;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
/** Seconds, bare (`60`) or with a unit (`30s`, `5m`, `1h`, `1d`). */
const intervalSeconds = text(16)
  .regex(/^\d{1,6}\s*[smhd]?$/, 'Give seconds, or a number with s, m, h or d.')
  .transform((v) => {
    const unit = (/[smhd]$/.exec(v)?.[0] ?? 's') as keyof typeof UNIT_SECONDS;
    return Number.parseInt(v, 10) * UNIT_SECONDS[unit];
  })
  .refine((s) => s >= 1 && s <= 7 * 86_400, 'Ensure this value is between 1 second and 7 days.');

export const timeseriesQuery = z.object({
  group_by: z.enum(['prefix', 'action', 'none']).default('prefix'),
  duration_type: z.enum(DURATION_TYPES).default('compute'),
  /** Seconds per point; widened when the data would need more than 2000 points. */
  interval: intervalSeconds.default(60),
});

export const exceptionsQuery = pageQuery.extend({
  cluster: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  scheduler: text(200).optional(),
  /** Epoch seconds; exceptions since then. */
  since: z.coerce.number().min(0).max(1e11).optional(),
  /** Clusters of this creator (user id). */
  user: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

const numbers = z.record(z.string(), z.number());

export const computationSchema = z.object({
  id: z.number().int(),
  /** Dask's computation id. */
  identifier: z.string(),
  cluster_id: z.number().int(),
  scheduler_id: z.string(),
  start: z.string(),
  stop: z.string().nullable(),
  /** Seconds from start to stop; null while it runs. */
  duration: z.number().nullable(),
  n_tasks: z.number().int(),
  n_groups: z.number().int(),
  states: numbers,
  code: z.string(),
  compute_seconds: z.number(),
  /** Its task prefixes, those that computed longest first. */
  task_prefixes: z.array(z.string()),
  n_exceptions: z.number().int(),
  status: z
    .enum(['running', 'finished', 'erred', 'unfinished'])
    .describe(
      'running: tasks remain and its scheduler runs; finished, or erred when a task raised; unfinished: its scheduler or cluster stopped first.',
    ),
});

export const taskPrefixSchema = z.object({
  prefix: z.string(),
  n_groups: z.number().int(),
  n_tasks: z.number().int(),
  compute_seconds: z.number(),
  durations: numbers,
  states: numbers,
  nbytes: z.number(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
});

export const summarySchema = z.object({
  cluster_id: z.number().int(),
  scheduler_ids: z.array(z.string()),
  n_computations: z.number().int(),
  n_tasks: z.number().int(),
  n_exceptions: z.number().int(),
  n_task_prefixes: z.number().int(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  compute_seconds: z.number(),
  nbytes: z.number(),
  /** Seconds by action (compute, transfer, disk-read...) over every task. */
  durations: numbers,
  task_prefixes: z.array(taskPrefixSchema),
});

export const sampleSchema = z.object({
  time: z.string(),
  n_workers: z.number().int(),
  threads: z.number().int(),
  memory: z.number(),
  n_tasks: z.number().int(),
  processing: z.number().int(),
});

export const timeseriesSchema = z.object({
  group_by: z.string(),
  duration_type: z.string(),
  /** Seconds per point, as used. */
  interval: z.number().int(),
  series: z.array(
    z.object({
      name: z.string(),
      total_seconds: z.number(),
      points: z.array(z.object({ time: z.string(), seconds: z.number() })),
    }),
  ),
  /** The schedulers' gauges, the highest of each interval. */
  samples: z.array(sampleSchema),
});

export const spanSchema = z.object({
  id: z.number().int(),
  identifier: z.string(),
  cluster_id: z.number().int(),
  scheduler_id: z.string().nullable(),
  name: z.string().nullable(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  duration: z.number().nullable(),
  callstack: z.unknown(),
  data: z.record(z.string(), z.unknown()),
  created: z.string(),
  updated: z.string(),
});

export const eventSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  message: z.string(),
  action: z.string().nullable(),
  worker: z.string().nullable(),
  level: z.number().int(),
  created: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const exceptionSchema = z.object({
  id: z.number().int(),
  cluster_id: z.number().int(),
  scheduler_id: z.string(),
  computation: z.string().nullable(),
  key: z.string(),
  task_prefix: z.string(),
  exception: z.string(),
  traceback: z.string(),
  worker: z.string().nullable(),
  time: z.string(),
});

export const schedulerSchema = z.object({
  scheduler_id: z.string(),
  created: z.string(),
  closed: z.string().nullable(),
  close_reason: z.string(),
  last_report: z.string().nullable(),
  info: z.record(z.string(), z.unknown()),
});

export const clusterAnalyticsSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.string(),
  created: z.string(),
  schedulers: z.array(schedulerSchema),
  n_computations: z.number().int(),
  n_tasks: z.number().int(),
  n_exceptions: z.number().int(),
  n_spans: z.number().int(),
  compute_seconds: z.number(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  /** The ten task prefixes that computed longest. */
  task_prefixes: z.array(taskPrefixSchema),
  last_sample: sampleSchema.nullable(),
  /** The newest Dask profile a scheduler posted (`analytics/profile`). */
  last_profile: z
    .object({
      scheduler_id: z.string(),
      created: z.string(),
      n_workers: z.number().int().nullable(),
      profile: z.record(z.string(), z.unknown()),
    })
    .nullable(),
});

export const computationParams = clusterParams.extend({ computation: id });

export const taskGroupSchema = z.object({
  name: z.string(),
  prefix: z.string(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  /** Seconds from its first task's start to its last task's stop; null while it runs. */
  duration: z.number().nullable(),
  compute_seconds: z.number(),
  durations: numbers,
  nbytes: z.number(),
  n_tasks: z.number().int(),
  /** Tasks finished: in memory, released or forgotten after use, or erred. */
  n_done: z.number().int(),
  n_erred: z.number().int(),
  states: numbers,
});

export const computationDetailSchema = computationSchema.extend({
  /** Its task groups in the order they started (at most 500). */
  task_groups: z.array(taskGroupSchema),
  /** Exceptions its tasks raised, newest first (at most 50). */
  exceptions: z.array(exceptionSchema),
});

export const progressSchema = z.object({
  cluster_id: z.number().int(),
  time: z.string(),
  /** Running computations, newest first (at most 5), with their task groups (at most 100 each). */
  computations: z.array(
    z.object({
      id: z.number().int(),
      identifier: z.string(),
      scheduler_id: z.string(),
      start: z.string(),
      /** When the scheduler last reported a change to it. */
      updated: z.string(),
      code: z.string(),
      n_tasks: z.number().int(),
      n_done: z.number().int(),
      n_groups: z.number().int(),
      task_groups: z.array(taskGroupSchema),
    }),
  ),
});
