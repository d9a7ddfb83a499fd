import { id, idList, queryBool, text, z } from '../../../http/zod.js';

const ms = z.coerce.number().int().min(0).max(8_640_000_000_000);

/** better-logs; since_ms and until_ms are inclusive. */
export const betterLogsQuery = z.object({
  instance_ids: idList('Enter comma-separated instance ids.'),
  dask: queryBool.optional(),
  system: queryBool.optional(),
  since_ms: ms.optional(),
  until_ms: ms.optional(),
  filter_pattern: text(500).optional(),
  /** Only the output of this batch task (its run task id, as `jobs/{id}` lists them). */
  task_id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1)
    .optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(5000),
  page_limit: z.coerce.number().int().min(1).max(10_000).optional(),
});
export type BetterLogsQuery = z.infer<typeof betterLogsQuery>;

export const logEventSchema = z.object({
  timestamp: z.number().int(),
  instance_id: z.number().int(),
  message: z.string(),
});
export const logRowSchema = logEventSchema.extend({
  instance: z.string(),
  source: z.enum(['dask', 'system']),
  /** The batch task the line is output of (run task id), if any. */
  task_id: z.number().int().nullable(),
});

export const instanceLogsQuery = z.object({
  since: ms.optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(1000),
});

export const logInfoSchema = z.object({
  cluster_id: z.number().int(),
  instances: z.array(
    z.object({ id: z.number().int(), name: z.string(), role: z.string(), state: z.string() }),
  ),
  line_count: z.number().int(),
  earliest_ms: z.number().int().nullable(),
  latest_ms: z.number().int().nullable(),
});

export const infraEventSchema = z.object({
  timestamp: z.string(),
  object_type: z.string(),
  name: z.string().nullable(),
  state: z.string(),
  reason: z.string(),
});

export const alertSchema = z.object({
  level: z.number().int(),
  title: z.string(),
  message: z.string(),
  first_occurred: z.string(),
});

export const logsClusterParams = z.object({ pk: id });
export const logSessionParams = z.object({ pk: id, encoded_session: text(4096).min(1) });

/** A log page session: better-logs' filters and a page size. */
export const logPageRequest = z.object({
  instance_ids: z.array(id).max(500).optional(),
  dask: z.boolean().optional(),
  system: z.boolean().optional(),
  since_ms: ms.optional(),
  until_ms: ms.optional(),
  filter_pattern: text(500).optional(),
  task_id: z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1)
    .optional(),
  page_size: z.number().int().min(1).max(5000).default(500),
});
export type LogPageRequest = z.infer<typeof logPageRequest>;

export const logPageSchema = z.object({
  cluster_id: z.number().int(),
  events: z.array(logRowSchema),
  has_more: z.boolean().describe('More lines matched than this page holds: ask `next` at once.'),
  next: z.string().describe('Opaque session continuing after this page (also for lines that arrive later).'),
});
