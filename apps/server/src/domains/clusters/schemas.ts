import { CLUSTER_STATES, INSTANCE_STATES, PROCESS_STATES } from '../../db/schema/index.js';
import { id, queryBool, text, z } from '../../http/zod.js';
import { MAX_DETAILS_WAIT_SECONDS } from './details-wait.js';
import { attachmentSpec } from './filestores/schemas.js';

const MAX_DICT_JSON = 64 * 1024;

/** A JSON object of bounded size (options, dask config...): keys are bounded, values arbitrary. */
export const jsonObject = (maxJson = MAX_DICT_JSON) =>
  z
    .record(z.string().max(500), z.unknown())
    .refine(
      (value) => JSON.stringify(value).length <= maxJson,
      `Ensure this field is smaller than ${maxJson / 1024} kB.`,
    );

/** Tags and environment variables: strings to strings (clients stringify values). */
const stringMap = (maxEntries: number) =>
  z
    .record(z.string().trim().min(1).max(255), z.union([z.string(), z.number(), z.boolean()]))
    .refine(
      (m) => Object.keys(m).length <= maxEntries,
      `Ensure this field has no more than ${maxEntries} entries.`,
    )
    .transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v).slice(0, 10_000)])));

/** Cluster names: what Dask and the console can show and what the worker names build on. */
export const clusterName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'Cluster names use letters, digits, ".", "_" and "-".');

const stringList = z.array(text(100)).max(50);

/** `POST clusters/account/{ws}/`, as clients send it. */
export const createClusterBody = z.object({
  name: clusterName,
  workers: z.number().int().min(0).max(1000).nullish(),
  worker_instance_types: stringList.nullish(),
  scheduler_instance_types: stringList.nullish(),
  worker_options: jsonObject().nullish(),
  worker_class: text(200)
    .regex(
      /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/,
      'Give the import path of a Dask worker class, like distributed.Worker.',
    )
    .nullish(),
  worker_disk_size: z.number().int().min(0).max(100_000).nullish(),
  worker_disk_throughput: z.number().int().min(0).max(100_000).nullish(),
  worker_disk_config: jsonObject().nullish(),
  scheduler_disk_size: z.number().int().min(0).max(100_000).nullish(),
  scheduler_disk_config: jsonObject().nullish(),
  scheduler_options: jsonObject().nullish(),
  environ: stringMap(500).nullish(),
  tags: stringMap(100).nullish(),
  dask_config: jsonObject(1024 * 1024).nullish(),
  private_to_creator: z.boolean().nullish(),
  env_id: z.number().int().nullish(),
  env_name: text(200).nullish(),
  extra_worker_on_scheduler: z.boolean().nullish(),
  n_worker_specs_per_host: z.number().int().min(1).max(1000).nullish(),
  use_aws_creds_endpoint: z.boolean().nullish(),
  custom_subdomain: text(100).nullish(),
  batch_job_ids: z.array(z.number().int()).max(1000).nullish(),
  extra_user_container: text(500).nullish(),
  extra_user_container_ignore_entrypoint: z.boolean().nullish(),
  scheduler_sidecars: z.array(jsonObject()).max(20).nullish(),
  worker_sidecars: z.array(jsonObject()).max(20).nullish(),
  host_setup_script: text(100_000).nullish(),
  pause_on_exit: z.boolean().nullish(),
  cluster_timeout_seconds: z.number().int().min(0).max(10_000_000).nullish(),
  coiled_cloud_env_image: text(500).nullish(),
  filestores_to_attach: z.array(attachmentSpec).max(50).nullish(),
  local_versions: jsonObject().nullish(),
  options: jsonObject().nullish(),
});
export type CreateClusterBody = z.infer<typeof createClusterBody>;

export const createClusterResult = z.object({ id: z.number().int(), existing: z.boolean() });

export const workspaceParams = z.object({ account: text(64) });
export const clusterParams = z.object({ account: text(64), pk: id });
export const clusterNameParams = z.object({ account: text(64), name: text(100) });

export const listClustersQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  just_mine: queryBool.optional(),
  name: text(100).optional(),
});
export const nameLookupQuery = z.object({ include_paused: queryBool.optional() });
export const detailsQuery = z.object({
  /**
   * A client waiting for a starting cluster: hold the answer up to this many seconds while the
   * details' version is still `seen` (answered at once when it differs), instead of asking again
   * and again. Without `seen` it is not held.
   */
  wait_for_change: z.coerce.number().min(0).max(MAX_DETAILS_WAIT_SECONDS).optional(),
  /**
   * The version of the details the client has: the first 16 hex digits of the SHA-256 of every
   * `current_state` in them as `state@updated`, sorted and joined by commas.
   */
  seen: z.string().trim().max(64).optional(),
});
export const statesQuery = z.object({ start_time: z.string().trim().max(64).optional() });
export const deleteClusterQuery = z.object({
  reason: text(6000).optional(),
  pause: queryBool.optional(),
});

const stateSchema = <T extends readonly [string, ...string[]]>(values: T) =>
  z.object({ state: z.enum(values), reason: z.string(), updated: z.string() });
export const clusterStateSchema = stateSchema(CLUSTER_STATES);

export const instanceSchema = z.object({
  id: z.number().int(),
  created: z.string(),
  name: z.string(),
  public_ip_address: z.string().nullable(),
  private_ip_address: z.string().nullable(),
  instance_type_id: z.string(),
  backend_type: z.string(),
  role: z.enum(['scheduler', 'worker']),
  cluster_id: z.number().int(),
  current_state: stateSchema(INSTANCE_STATES),
  /** When its agent last phoned home; null before the first heartbeat. */
  last_heartbeat: z.string().nullable(),
});

export const processSchema = z.object({
  id: z.number().int(),
  created: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  current_state: stateSchema(PROCESS_STATES),
  instance: instanceSchema.nullable(),
});
export const schedulerSchema = processSchema.extend({
  dashboard_address: z.string().nullable(),
  /** Notebook clusters: the link to Jupyter (a pass of their own, like dashboard_address) for its creator only; null for anyone else and otherwise. */
  jupyter_address: z.string().nullable(),
});

const personSchema = z.object({ id: z.number().int(), username: z.string() }).nullable();

/** A cluster in lists: enough for the dashboard table and the CLI. */
export const clusterSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created: z.string(),
  updated: z.string(),
  current_state: clusterStateSchema,
  desired_workers: z.number().int(),
  ready_workers: z.number().int(),
  creator: personSchema,
  account: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }),
  tags: z.record(z.string(), z.string()),
  backend_type: z.string(),
  scheduler_address: z.string().nullable(),
  idle_timeout: z.number().int(),
});

/** `GET clusters/account/{ws}/id/{id}`. */
export const clusterDetailsSchema = clusterSummarySchema.extend({
  coiled_hosted: z.boolean(),
  scheduler: schedulerSchema.nullable(),
  workers: z.array(processSchema),
  scheduler_port: z.number().int(),
  cluster_options: z.object({
    tls_cert: z.string(),
    tls_key: z.string(),
    region_name: z.string(),
    zone_name: z.string().nullable(),
    firewall_spec: z
      .object({ ingress: z.array(z.object({ ports: z.array(z.number().int()), cidr: z.string() })) })
      .nullable()
      .describe(
        "The cluster's own firewall (vm_aws): the ports open to each CIDR; null: the workspace's network only.",
      ),
  }),
  cluster_infra: z.object({
    give_scheduler_public_ip: z.boolean(),
    current_state: z.object({ state: z.string(), updated: z.string() }),
  }),
  senv_alias: z.object({ name: z.string() }).nullable(),
  worker_options: z.record(z.string(), z.unknown()),
  scheduler_options: z.record(z.string(), z.unknown()),
  cost_per_hour: z.number(),
  total_cost: z.number(),
  billable_time: z.number().nullable(),
  stop_timers: z
    .array(
      z.object({
        timer: z.enum(['cluster_timeout', 'idle_timeout', 'no_client_timeout']),
        seconds: z.number().int(),
        at: z.string().nullable(),
      }),
    )
    .describe(
      'What will stop the cluster by itself: cluster_timeout at `at`, idle_timeout after `seconds` without work, no_client_timeout `seconds` after its last client left. Empty for a cluster at rest or a batch cluster.',
    ),
});

export const stateRecordSchema = z.object({
  id: z.number().int(),
  updated: z.string(),
  state: z.string(),
  reason: z.string(),
  stateful_object: z.object({ id: z.number().int(), name: z.string().nullable() }),
});
export const statesSchema = z.record(z.string(), z.array(stateRecordSchema));

export const sizeSchema = z.object({
  desired_workers: z.number().int(),
  workers: z.number().int(),
  ready_workers: z.number().int(),
  cores: z.number().int(),
});

export const clientEventBody = z.object({
  topic: text(200).nullish(),
  message: text(10_000).nullish(),
  timestamp: z.number().nullish(),
  extra_data: jsonObject().nullish(),
  duration: z.number().nullish(),
  level: z.number().int().min(0).max(100).nullish(),
});
export const eventParams = z.object({ cluster_id: id });

const csv = (max: number) =>
  z
    .union([text(2000), z.array(text(200)).max(max)])
    .optional()
    .transform((v) =>
      v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean),
    );

/** Tag filters as list calls take them: `key` (has the tag) or `key:value`, comma separated. */
export const tagFilter = csv(20).transform((tags) =>
  tags.map((t): [string, string | undefined] => {
    const at = t.indexOf(':');
    return at < 0 ? [t, undefined] : [t.slice(0, at), t.slice(at + 1)];
  }),
);

/** `GET clusters/paginate`. `tags` are `key` or `key:value`, comma separated. */
export const paginateQuery = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  name: text(100).optional(),
  just_mine: queryBool.optional(),
  state: csv(20).pipe(z.array(z.enum(CLUSTER_STATES))),
  tags: tagFilter,
  order_by: z.enum(['created', 'updated', 'name', 'state', 'id']).default('created'),
  order_by_direction: z.enum(['asc', 'desc']).default('desc'),
  pause_on_exit: queryBool.optional(),
  min_alert_level: z.coerce.number().int().min(0).max(100).optional(),
  distinct: queryBool.optional(),
  limit_count: z.coerce.number().int().min(0).max(100_000).optional(),
  total: queryBool.default(true),
  account: text(64).optional(),
  organization: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  user: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  compound_scope: text(64).optional(),
  custom_staff_scope: text(64).optional(),
});

export const sshKeyQuery = z.object({ worker: text(200).optional() });

/** `GET .../ssh-key`, plus whether SSH works on this backend. */
export const sshKeySchema = z.object({
  private_key: z.string().describe('Ed25519 private key, OpenSSH text (unencrypted).'),
  public_key: z.string().describe('The matching `ssh-ed25519 ...` line for authorized_keys.'),
  scheduler_public_address: z.string().nullable(),
  scheduler_private_address: z.string().nullable(),
  scheduler_hostname: z.string().nullable(),
  scheduler_state: z.enum(INSTANCE_STATES).nullable(),
  worker_address: z.string().nullable().describe('The address of the `worker` asked for, else null.'),
  scheduler_address_to_use: z.string().nullable(),
  ssh_available: z.boolean().describe('False when the instances run no SSH server (the local backend).'),
  detail: z.string(),
});

export const staffSeenQuery = z.object({ seen: queryBool.default(true) });
export const staffSeenSchema = z.object({
  id: z.number().int(),
  staff_has_seen: z.boolean(),
  staff_seen_at: z.string().nullable(),
  staff_seen_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
});
