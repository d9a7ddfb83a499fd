import { id, text, z } from '../../http/zod.js';
import { jsonObject } from '../clusters/schemas.js';

/** What the scheduler preload sends (api.md section 3); unknown keys are dropped, sizes bounded. */
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
