import { id, text, z } from '../../../http/zod.js';

export const workspaceParams = z.object({ account: text(64) });
export const specParams = z.object({ account: text(64), pk: id });

/** The machine a cluster's scheduler or workers run on, and Dask's share of it. */
export const instanceSpecSchema = z.object({
  id: z.number().int(),
  cluster_id: z.number().int(),
  cluster_name: z.string(),
  role: z.enum(['scheduler', 'worker']),
  backend_type: z.string(),
  instance_type: z.string().describe('What runs (`local` for the local backend).'),
  requested_instance_types: z.array(z.string()).describe('What the client asked for, in its order.'),
  cores: z.number().int(),
  memory_mib: z.number().int(),
  gpus: z.number().int(),
  gpu_type: z.string().nullable(),
  arch: z.string(),
  disk_size_gib: z.number().int().nullable(),
  dask_threads: z.number().int().nullable().describe('Worker threads (null for the scheduler).'),
  dask_memory_limit: z
    .string()
    .nullable()
    .describe("The worker's memory limit as asked; null means Dask's default."),
  created: z.string(),
});
