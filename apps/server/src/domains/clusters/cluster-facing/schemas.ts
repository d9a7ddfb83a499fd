import { text, z } from '../../../http/zod.js';

export const backendId = text(128).min(1);

export const instancePhoneHome = z.object({
  backend_id: backendId,
  state: z.enum(['starting', 'started', 'ready', 'stopping', 'stopped', 'error']),
  reason: text(2000).optional(),
  private_ip_address: text(64).nullish(),
  public_ip_address: text(64).nullish(),
});

export const processPhoneHome = z.object({
  backend_id: backendId,
  state: z.enum(['starting', 'started', 'stopping', 'stopped', 'error']).optional(),
  reason: text(2000).optional(),
  /** The Dask address, e.g. tls://10.0.0.5:8786. */
  address: text(300).nullish(),
  dashboard_address: text(300).nullish(),
  /** Scheduler only: whether the dashboard itself is served (Dask found a bokeh it can use). */
  dashboard_available: z.boolean().optional(),
  /** Scheduler only: asks the control plane to stop the whole cluster (idle or no-client shutdown). */
  stop_cluster_reason: text(2000).optional(),
  /** Scheduler only: the no-client timeout a client set at run time (seconds; null: off). */
  no_client_timeout_seconds: z.number().int().min(0).max(10_000_000).nullable().optional(),
});

export const logBatch = z.object({
  backend_id: backendId,
  lines: z
    .array(
      z.object({
        timestamp_ms: z.number().int().min(0).max(8_640_000_000_000),
        source: z.enum(['dask', 'system']),
        message: z.string().max(20_000),
        /** Output of a batch task: its run task id. */
        task_id: z.number().int().positive().nullish(),
      }),
    )
    .max(2000),
});

export const instanceStateAnswer = z.object({
  backend_id: z.string(),
  state: z.string(),
  desired_state: z.string(),
  /** The agent stops its processes and exits when this is true. */
  stop: z.boolean(),
});

export const bootstrapQuery = z.object({
  backend_id: backendId,
  /**
   * A worker's agent waiting for its scheduler: hold the answer up to this many seconds (at most
   * half a heartbeat interval) until the scheduler's address is known.
   */
  wait_for_scheduler: z.coerce.number().min(0).max(10).optional(),
  /**
   * The agent's first bootstrap: its instance's private address. The call then also reports the
   * instance `started` at it (as `PATCH instance/phone-home/` does) and its Dask process `starting`,
   * and answers with `preload_sources`: one call instead of three to five before Dask is spawned.
   */
  started_at: text(64).min(1).optional(),
});

export const bootstrapAnswer = z.object({
  cluster_id: z.number().int(),
  cluster_name: z.string(),
  workspace: z.string(),
  instance_id: z.number().int(),
  instance_name: z.string(),
  backend_id: z.string(),
  role: z.enum(['scheduler', 'worker']),
  /** The scheduler's address for workers; null until the scheduler has started (ask again). */
  scheduler_address: z.string().nullable(),
  /** 0: any free port; a cloud backend fixes it (8786 on vm_aws, what its security group opens). */
  scheduler_port: z.number().int(),
  /** Where the scheduler's HTTP server (dashboard) listens; 0: any free port (8787 on vm_aws). */
  dashboard_port: z.number().int(),
  dask_config: z.record(z.string(), z.unknown()),
  environ: z.record(z.string(), z.string()),
  worker_options: z.record(z.string(), z.unknown()),
  /** The Dask worker class to run (`worker_class` as created); null: Dask's own worker. */
  worker_class: z.string().nullable(),
  scheduler_options: z.record(z.string(), z.unknown()),
  idle_timeout_seconds: z.number().int(),
  /** Paths (under /api/v2/cluster_facing/preload/) the agent fetches and hands to Dask as preloads. */
  preloads: z.array(z.string()),
  /** With `?started_at=`: each preload's Python source by name (else null: fetch each from `preload/{name}`). */
  preload_sources: z.record(z.string(), z.string()).nullable(),
  /** With `?started_at=`: the instance's `started` and its process's `starting` were recorded by this call. */
  reported_started: z.boolean(),
  tls_cert: z.string(),
  tls_key: z.string(),
  heartbeat_interval_seconds: z.number(),
  python: z
    .string()
    .nullable()
    .describe(
      "The interpreter to run Dask with (the cluster's software environment); null: the agent's own.",
    ),
  environment: z
    .object({
      path: z
        .string()
        .nullable()
        .describe(
          'Where on the control plane the archive is downloaded from, with the cluster token; null: `url` says where.',
        ),
      url: z
        .string()
        .nullable()
        .describe(
          "A short-lived signed link to download the archive by, with no credentials (vm_gcp: the workspace's bucket); null: `path`.",
        ),
      key: z
        .string()
        .describe('Its content hash (SHA-256 of the lockfile): the unpacked copy is named by it.'),
    })
    .nullable()
    .describe(
      "The cluster's software environment as an archive to unpack and run Dask with (vm_aws, vm_gcp); null: none, or `python` names it.",
    ),
  unreachable_timeout_seconds: z.number(),
  /** Scheduler only: the path its HTTP server (the dashboard) serves under, as the control plane proxies it. */
  dashboard_prefix: z.string().nullable(),
  /** Batch clusters: the jobs whose tasks the instance runs (`pending-run-task`), and the host setup scripts to run first. */
  batch: z.object({ job_ids: z.array(z.number().int()), host_setup: z.array(z.string()) }).nullable(),
});

export const workerIpsAnswer = z.object({
  ips: z.array(z.string()).describe("Private addresses of the cluster's live workers."),
  workers: z.array(
    z.object({
      name: z.string(),
      backend_id: z.string(),
      state: z.string(),
      private_ip_address: z.string().nullable(),
      public_ip_address: z.string().nullable(),
    }),
  ),
});

export const dashboardCertAnswer = z.object({
  cert: z.string().describe('PEM certificate the dashboard serves.'),
  key: z.string().describe('Its PEM private key.'),
  ca: z.string().describe('PEM of what signed it (itself when self-signed).'),
  self_signed: z.boolean(),
  subdomain: z.string().nullable().describe('The custom subdomain asked for at creation, if any.'),
});

export const fileRefParams = z.object({
  key: text(200)
    .min(1)
    .regex(/^[A-Za-z0-9._-]+$/),
});
export const fileRefAnswer = z.object({
  key: z.string(),
  path: z.string().describe("Where it goes, relative to the instance's work dir."),
  content: z.string(),
  sha256: z.string(),
});
