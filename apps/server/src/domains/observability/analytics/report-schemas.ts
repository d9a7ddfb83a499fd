import { text, z } from '../../../http/zod.js';
import { jsonObject } from '../../clusters/index.js';

/**
 * What a cluster's scheduler reports (`analytics/metrics`, `metrics-compress`, `profile`,
 * `span/{id}`): computations, task groups, exceptions, samples, profiles and spans, the fields the
 * scheduler preload sends, bounded so one report stays cheap to store.
 * Times are epoch seconds, as Dask keeps them. Long texts are cut rather than refused, so one
 * long traceback does not lose a whole report.
 */
export const MAX_TASK_GROUPS = 2000;

const epoch = z.number().min(0).max(1e11);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const cut = (max: number) =>
  z
    .string()
    .max(1024 * 1024)
    .transform((s) => s.slice(0, max));
const bounded = <T extends z.ZodType>(schema: T, maxEntries: number) =>
  schema.refine(
    (m) => Object.keys(m as object).length <= maxEntries,
    `Ensure this field has no more than ${maxEntries} entries.`,
  );
/** Task counts by state (`{"memory": 10, "erred": 1}`). */
const stateCounts = bounded(z.record(text(32), count), 32);
/** Seconds by action (`{"compute": 1.5, "transfer": 0.1}`). */
const secondsByAction = bounded(z.record(text(32), z.number().min(0).max(1e12)), 32);

const computationReport = z.object({
  /** Dask's computation id (a UUID). */
  id: text(64).min(1),
  start: epoch,
  stop: epoch.nullish(),
  n_tasks: count.optional(),
  n_groups: count.optional(),
  states: stateCounts.optional(),
  code: cut(10_000).optional(),
});

const taskGroupReport = z.object({
  name: text(300).min(1),
  prefix: text(200),
  /** The id of the computation it belongs to (in this report or an earlier one). */
  computation: text(64).min(1),
  start: epoch.nullish(),
  stop: epoch.nullish(),
  durations: secondsByAction.optional(),
  nbytes: count.optional(),
  n_tasks: count.optional(),
  states: stateCounts.optional(),
  types: z.array(text(200)).max(20).optional(),
});

const exceptionReport = z.object({
  key: text(500).min(1),
  prefix: text(200).optional(),
  computation: text(64).nullish(),
  exception: cut(5000).optional(),
  traceback: cut(20_000).optional(),
  worker: text(300).nullish(),
  time: epoch,
});

const durationReport = z.object({
  prefix: text(200),
  action: text(32).min(1),
  seconds: z.number().min(0).max(1e9),
});

/** A time as epoch seconds or an ISO string (clients send either). */
const when = z.union([epoch, z.iso.datetime({ offset: true })]).nullish();

/** A span: a named stretch of client work. Other fields are kept as posted. */
export const spanBody = z
  .looseObject({
    name: text(300).nullish(),
    start: when,
    stop: when,
    callstack: z.unknown().optional(),
    ident: text(200).nullish(),
  })
  .refine((v) => JSON.stringify(v).length <= 64 * 1024, 'Ensure this span is smaller than 64 kB.');

/** One sample of an instance's machine (the agent's, every few seconds); rates per second. */
const hostSample = z.object({
  time: epoch,
  cpu: z.number().min(0).max(100),
  memory_used: count,
  memory_total: count,
  net_rx: z.number().min(0).max(1e13),
  net_tx: z.number().min(0).max(1e13),
  disk_read: z.number().min(0).max(1e13),
  disk_write: z.number().min(0).max(1e13),
  gpu: z.number().min(0).max(100).nullish(),
  gpu_memory_used: count.nullish(),
  gpu_memory_total: count.nullish(),
  /** What CPU, memory and disk are of: the machine (the default) or the instance's own processes. */
  scope: z.enum(['host', 'processes']).default('host'),
});

/** What the agent of an instance measured of its machine since its previous report. */
export const hostReport = z.object({
  backend_id: text(200).min(1),
  samples: z.array(hostSample).min(1).max(720),
});

const SCHEDULER_FIELDS = [
  'computations',
  'task_groups',
  'exceptions',
  'durations',
  'spans',
  'n_workers',
] as const;

const metricsFields = z.object({
  /** The scheduler's id (`Scheduler-<uuid>`); a report of only `host` samples comes without one. */
  ident: text(200).min(1).optional(),
  time: epoch.optional(),
  computations: z.array(computationReport).max(500).default([]),
  task_groups: z.array(taskGroupReport).max(MAX_TASK_GROUPS).default([]),
  exceptions: z.array(exceptionReport).max(200).default([]),
  /** Seconds per task prefix and action since the previous report: the timeseries. */
  durations: z.array(durationReport).max(MAX_TASK_GROUPS).default([]),
  spans: z
    .array(z.object({ identifier: text(200).min(1), span: spanBody }))
    .max(200)
    .default([]),
  n_workers: count.optional(),
  threads: count.optional(),
  memory: count.optional(),
  n_tasks: count.optional(),
  processing: count.optional(),
  waiting: count.optional(),
  in_memory: count.optional(),
  worker_memory: count.optional(),
  worker_cpu: z.number().min(0).max(1e7).optional(),
  transferred: count.optional(),
  host: hostReport.optional(),
  plugins: z.array(text(200)).max(100).optional(),
  idle_timeout: z.union([z.number(), text(50)]).nullish(),
  tags: jsonObject(16 * 1024).optional(),
});

export const metricsBody = metricsFields.superRefine((report, ctx) => {
  if (report.ident !== undefined) return;
  const given = SCHEDULER_FIELDS.some((f) => {
    const v = report[f];
    return Array.isArray(v) ? v.length > 0 : v !== undefined;
  });
  if (given || !report.host)
    ctx.addIssue({ code: 'custom', path: ['ident'], message: 'This field is required.' });
});

export const metricsAnswer = z.object({
  computations: z.number().int(),
  task_groups: z.number().int(),
  exceptions: z.number().int(),
  durations: z.number().int(),
  spans: z.number().int(),
  samples: z.number().int(),
  host_samples: z.number().int(),
});

export const profileBody = z.object({
  ident: text(200).min(1),
  n_workers: count.nullish(),
  profile: jsonObject(2 * 1024 * 1024),
});

export const spanIdentifier = z.object({ span_identifier: text(200).min(1) });

export type MetricsReport = z.infer<typeof metricsBody>;
export type SpanBody = z.infer<typeof spanBody>;
