import { z } from 'zod';

import type { CreateClusterBody } from '@/data/clusters/cluster-create-mutation';

// The Create cluster dialog's rules: the server's own bounds (apps/server clusters/schemas.ts),
// with messages for people.

export const MAX_WORKERS = 1000;
export const IDLE_TIMEOUTS = ['10 minutes', '20 minutes', '1 hour', '4 hours', '1 day'] as const;
/** The Python client's default, and the server's. */
export const DEFAULT_IDLE_TIMEOUT = '20 minutes';
export const DEFAULT_WORKERS = 4;

export const CLUSTER_NAME_RULE = 'Use letters, digits, ".", "_" and "-", starting with a letter or digit.';

const tagRow = z.object({
  key: z.string().trim().max(255, 'Tag keys are limited to 255 characters'),
  value: z.string().trim().max(1000, 'Tag values are limited to 1000 characters'),
});

export const createClusterSchema = z
  .object({
    /** The workspace's slug: one of those the current scope lists, so the new cluster shows there. */
    workspace: z.string().min(1, 'Pick a workspace'),
    name: z
      .string()
      .trim()
      .min(1, { message: 'Cluster name is required', abort: true })
      .max(100, 'Cluster names are limited to 100 characters')
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, CLUSTER_NAME_RULE),
    workers: z
      .string()
      .trim()
      .regex(/^\d+$/, `Workers must be a whole number from 0 to ${MAX_WORKERS}`)
      .refine(
        (value) => Number(value) <= MAX_WORKERS,
        `Workers must be a whole number from 0 to ${MAX_WORKERS}`,
      ),
    idleTimeout: z.enum(IDLE_TIMEOUTS),
    /** A software environment's name; empty: the server's own interpreter. */
    envName: z.string(),
    tags: z.array(tagRow).max(100, 'A cluster takes at most 100 tags'),
    /** Cloud workspaces only: a worker instance type ('' = the workspace's defaults) and spot. */
    workerInstanceType: z.string().max(64).default(''),
    spot: z.boolean().default(false),
    /** This server's own machines: each worker's threads and memory limit ('' = Dask's automatic share). */
    workerCores: z.string().regex(/^\d+$/).default('1'),
    workerMemory: z.string().max(32).default(''),
  })
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.tags.forEach((tag, index) => {
      if (tag.key === '' && tag.value !== '')
        ctx.addIssue({ code: 'custom', path: ['tags', index, 'key'], message: 'Give this tag a key' });
      if (tag.key !== '' && seen.has(tag.key))
        ctx.addIssue({
          code: 'custom',
          path: ['tags', index, 'key'],
          message: `Tag ${tag.key} is already set`,
        });
      seen.add(tag.key);
    });
  });

export type CreateClusterValues = z.input<typeof createClusterSchema>;
export type CreateClusterInput = z.output<typeof createClusterSchema>;

/** The name the Python client would pick: `{workspace}-{8 hex}`. */
export function suggestedName(workspace: string, random: () => number = Math.random): string {
  const hex = Array.from({ length: 8 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${workspace}-${hex}`;
}

export function defaultValues(workspace: string): CreateClusterValues {
  return {
    workspace,
    name: suggestedName(workspace),
    workers: String(DEFAULT_WORKERS),
    idleTimeout: DEFAULT_IDLE_TIMEOUT,
    envName: '',
    tags: [{ key: '', value: '' }],
    workerInstanceType: '',
    spot: false,
    workerCores: '1',
    workerMemory: '',
  };
}

/**
 * The create call's body as the established client sends it: every key
 * present, null where the console has nothing to say. In a cloud workspace the Spot switch is
 * always said, so a workspace whose settings run spot gets on-demand workers when it is off.
 */
export function createClusterBody(input: CreateClusterInput, cloud = false): CreateClusterBody {
  const tags = Object.fromEntries(
    input.tags.filter((tag) => tag.key !== '').map((tag) => [tag.key, tag.value]),
  );
  return {
    name: input.name,
    workers: Number(input.workers),
    worker_instance_types: input.workerInstanceType ? [input.workerInstanceType] : null,
    scheduler_instance_types: null,
    // On a cloud the instance type sizes a worker; here its threads and memory limit do.
    worker_options: cloud
      ? {}
      : {
          nthreads: Number(input.workerCores),
          ...(input.workerMemory ? { memory_limit: input.workerMemory } : {}),
        },
    worker_class: null,
    worker_disk_size: null,
    worker_disk_throughput: null,
    worker_disk_config: null,
    scheduler_disk_size: null,
    scheduler_disk_config: null,
    scheduler_options: { idle_timeout: input.idleTimeout },
    environ: {},
    tags,
    dask_config: {},
    private_to_creator: null,
    env_id: null,
    env_name: input.envName || null,
    extra_worker_on_scheduler: null,
    n_worker_specs_per_host: null,
    use_aws_creds_endpoint: false,
    custom_subdomain: null,
    batch_job_ids: null,
    extra_user_container: null,
    extra_user_container_ignore_entrypoint: false,
    scheduler_sidecars: null,
    worker_sidecars: null,
    host_setup_script: null,
    pause_on_exit: null,
    cluster_timeout_seconds: null,
    coiled_cloud_env_image: null,
    filestores_to_attach: null,
    // Spot workers fall back to on demand when spot capacity is short (the client's spot_with_fallback).
    ...(cloud && {
      options: input.spot ? { spot: true, spot_on_demand_fallback: true } : { spot: false },
    }),
  };
}
