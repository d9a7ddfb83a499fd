import { id, idList, queryBool, text, z } from '../../../http/zod.js';
import { METRIC_NAMES } from './catalog.js';

const metric = z.enum(METRIC_NAMES);
/** Epoch seconds, or an ISO time. */
const instant = z.union([z.coerce.number().min(0).max(1e11), text(40)]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: 'Enter epoch seconds or an ISO time.' });
    return z.NEVER;
  }
  return ms / 1000;
});
export const overTime = z.enum(['max', 'min', 'avg', 'sum', 'last']);

export const clusterParams = z.object({ account: text(64), pk: id });
export const workspaceParams = z.object({ account: text(64) });

/** `GET metrics/account/{ws}/cluster/{id}`; `expires` and `signature` stand in for credentials. */
export const seriesQuery = z.object({
  query: metric.default('workers'),
  sort: z.enum(['asc', 'desc']).optional(),
  start: instant.optional(),
  end: instant.optional(),
  scheduler: queryBool.optional(),
  instance_ids: idList('Enter comma-separated instance ids.'),
  /** `cluster`: per-instance series combined into one (per direction) across instances. */
  by: z.enum(['instance', 'cluster']).default('instance'),
  expires: z.coerce.number().int().min(0).max(1e11).optional(),
  signature: text(100).optional(),
});

export const seriesSchema = z.object({
  metric: z.record(z.string(), z.string()),
  values: z.array(z.tuple([z.number(), z.number()])).describe('[epoch seconds, value] pairs.'),
});

export const seriesAnswer = z.object({
  query: metric,
  unit: z.string(),
  help: z.string(),
  start: z.number(),
  end: z.number(),
  step: z.number(),
  series: z.array(seriesSchema),
});

export const valueQuery = z.object({
  query: metric,
  over_time: overTime.default('max'),
  scheduler: queryBool.optional(),
  start_ts: instant.optional(),
  end_ts: instant.optional(),
});
export const valueAnswer = z.object({
  query: metric,
  over_time: overTime,
  unit: z.string(),
  value: z.number().nullable(),
  start_ts: z.number(),
  end_ts: z.number(),
});

export const debugQuery = z.object({ set_tags: queryBool.optional() });

export const debugAnswer = z.object({
  cluster_id: z.number().int(),
  name: z.string(),
  state: z.string(),
  desired_state: z.string(),
  infra_state: z.string(),
  desired_workers: z.number().int(),
  reconcile_at: z.string().nullable(),
  lease_until: z.string().nullable(),
  processes: z.record(z.string(), z.number().int()).describe('Count by `role:state`.'),
  instances: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      role: z.string(),
      state: z.string(),
      desired_state: z.string(),
      launched_at: z.string().nullable(),
      last_heartbeat: z.string().nullable(),
      heartbeat_age_seconds: z.number().nullable(),
      released_at: z.string().nullable(),
      log_lines: z.number().int(),
    }),
  ),
  log_lines: z.record(z.string(), z.number().int()).describe('Count by source (dask, system).'),
  events: z.record(z.string(), z.number().int()).describe('Count by kind.'),
  state_changes: z.number().int(),
  tags: z.record(z.string(), z.string()).optional(),
});

export const summaryAnswer = z.object({
  cluster_id: z.number().int(),
  state: z.string(),
  uptime_seconds: z.number().int(),
  desired_workers: z.number().int(),
  started_workers: z.number().int(),
  peak_workers: z.number().int(),
  running_instances: z.number().int(),
  total_instances: z.number().int(),
  instance_seconds: z.number().int().describe('Seconds of instance time used, summed over instances.'),
  failed_processes: z.number().int(),
  log_lines: z.number().int(),
  last_heartbeat: z.string().nullable(),
  metrics_url: z
    .string()
    .describe("Signed link to this cluster's metric series, readable without credentials for an hour."),
});

export const adhocQuery = z.object({
  name: text(200).min(1),
  query: metric,
  over_time: overTime,
  unit: text(50).optional(),
  n_clusters: z.coerce.number().int().min(1).max(100).default(10),
  clusters: idList('Enter comma-separated cluster ids.'),
  set_tags: queryBool.optional(),
});
export const adhocAnswer = z.object({
  name: z.string(),
  query: metric,
  over_time: overTime,
  unit: z.string(),
  items: z.array(
    z.object({
      cluster_id: z.number().int(),
      cluster_name: z.string(),
      value: z.number().nullable(),
      tags: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
