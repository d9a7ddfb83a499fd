import { id, text, z } from '../../../http/zod.js';
import { processSchema } from '../schemas.js';

export const workersParams = z.object({ account: text(64), cluster: id });
export const workerParams = z.object({ account: text(64), pk: id });

const names = z
  .union([text(200), z.array(text(200)).max(1000)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

export const listWorkersQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  name: names,
});

/** Scale up: `n_workers` more workers. */
export const addWorkersBody = z.object({
  n_workers: z.number().int().min(0).max(1000),
  reason: text(2000).optional(),
});

/** Scale down: workers by name, sent without the `<cluster name>-worker` prefix; or to a `target` count. */
export const removeWorkersQuery = z.object({
  name: names,
  reason: text(2000).optional(),
  target: z.coerce.number().int().min(0).max(1000).optional(),
});

export const workerSchema = processSchema.extend({ cluster_id: z.number().int() });
export const removedWorkersSchema = z.object({
  removed: z.array(z.string()),
  desired_workers: z.number().int(),
});
