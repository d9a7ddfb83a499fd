import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, loopColumns, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

// State vocabularies exactly as clients know them: no other strings.
export const CLUSTER_STATES = [
  'pending',
  'starting',
  'scaling',
  'ready',
  'pausing',
  'paused',
  'stopping',
  'stopped',
  'error',
] as const;
export const INFRA_STATES = ['queued', 'creating', 'error', 'created', 'destroying', 'destroyed'] as const;
export const PROCESS_STATES = [
  'pending',
  'starting',
  'started',
  'pausing',
  'paused',
  'stopping',
  'stopped',
  'error',
] as const;
export const INSTANCE_STATES = [
  'queued',
  'starting',
  'started',
  'ready',
  'pausing',
  'paused',
  'stopping',
  'stopped',
  'error',
] as const;
/** The keys of the `states` map. */
export const STATEFUL_OBJECT_TYPES = [
  'cluster',
  'scheduler',
  'scheduler_instance',
  'cluster_infra',
  'worker',
  'worker_instance',
] as const;

export const clusterState = pgEnum('cluster_state', CLUSTER_STATES);
export const infraState = pgEnum('cluster_infra_state', INFRA_STATES);
export const processState = pgEnum('process_state', PROCESS_STATES);
export const instanceState = pgEnum('instance_state', INSTANCE_STATES);
export const processRole = pgEnum('process_role', ['scheduler', 'worker']);
export const statefulObjectType = pgEnum('stateful_object_type', STATEFUL_OBJECT_TYPES);
export const logSource = pgEnum('log_source', ['dask', 'system']);

export type ClusterState = (typeof CLUSTER_STATES)[number];
export type InfraState = (typeof INFRA_STATES)[number];
export type ProcessState = (typeof PROCESS_STATES)[number];
export type InstanceState = (typeof INSTANCE_STATES)[number];
export type StatefulObjectType = (typeof STATEFUL_OBJECT_TYPES)[number];
export type ProcessRole = 'scheduler' | 'worker';

/**
 * A cluster: what the user asked for (desired state, workers, options) and what the control loop
 * made of it (current state). `desired_state` is `ready` while it should run, else `stopped` or
 * `paused`.
 */
export const clusters = pgTable(
  'clusters',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 128 }).notNull(),
    backendType: varchar('backend_type', { length: 32 }).notNull(),
    desiredState: clusterState('desired_state').notNull().default('ready'),
    /** Why the desired state is what it is (who asked, idle timeout...): the reason of the transitions towards it. */
    desiredReason: text('desired_reason').notNull().default(''),
    state: clusterState('state').notNull().default('pending'),
    stateReason: text('state_reason').notNull().default(''),
    stateUpdated: tstz('state_updated').notNull().defaultNow(),
    infraState: infraState('infra_state').notNull().default('queued'),
    desiredWorkers: integer('desired_workers').notNull(),
    /** Cores one worker counts for against the creator's core limit. */
    workerCores: integer('worker_cores').notNull().default(1),
    idleTimeoutSeconds: integer('idle_timeout_seconds').notNull(),
    pauseOnExit: boolean('pause_on_exit').notNull().default(false),
    workerOptions: jsonb('worker_options').$type<Record<string, unknown>>().notNull().default({}),
    schedulerOptions: jsonb('scheduler_options').$type<Record<string, unknown>>().notNull().default({}),
    environ: jsonb('environ').$type<Record<string, string>>().notNull().default({}),
    tags: jsonb('tags').$type<Record<string, string>>().notNull().default({}),
    daskConfig: jsonb('dask_config').$type<Record<string, unknown>>().notNull().default({}),
    /** Everything else of the create request (backend options, instance types...), kept as sent. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** The instances' bearer token: its SHA-256 to authenticate, and sealed to hand to new instances. */
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    tokenBox: text('token_box').notNull(),
    tlsCert: text('tls_cert').notNull(),
    /** The private key, in a SecretBox. */
    tlsKeyBox: text('tls_key_box').notNull(),
    /** Ed25519 key for SSH to the cluster's instances: OpenSSH private key in a SecretBox, public line. */
    sshKeyBox: text('ssh_key_box'),
    sshPublicKey: text('ssh_public_key'),
    /** Staff triage (`staff-has-seen`): when a staff user marked the cluster seen, and who. */
    staffSeenAt: tstz('staff_seen_at'),
    staffSeenById: integer('staff_seen_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The software environment build its scheduler and workers run with (null: CUMULUS_PYTHON itself). */
    softwareBuildId: integer('software_build_id'),
    schedulerAddress: text('scheduler_address'),
    schedulerPort: integer('scheduler_port'),
    /** Where the scheduler's HTTP server is, as the control plane reaches it (the dashboard proxy's upstream). */
    dashboardAddress: text('dashboard_address'),
    /** The scheduler serves the Dask dashboard there (its interpreter has a bokeh Dask can use). */
    dashboardAvailable: boolean('dashboard_available').notNull().default(false),
    /** Notebook clusters: where the scheduler's instance serves Jupyter (the proxy's upstream for `/jupyter/`). */
    jupyterAddress: text('jupyter_address'),
    /** Its start page under `/jupyter/`: `lab` (JupyterLab) or `tree` (Jupyter Notebook). */
    jupyterUi: varchar('jupyter_ui', { length: 16 }),
    /** The control loop's bookkeeping (loops/runner.ts): due time, lease, failures in a row. */
    ...loopColumns(),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clusters_token_hash_key').on(t.tokenHash),
    // DESC NULLS FIRST is what `order by ... desc` means: only an index in that order serves it.
    index('clusters_account_created_idx').on(
      t.workspaceId,
      t.created.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('clusters_account_name_idx').on(t.workspaceId, t.name),
    // paginate's name filter is a substring match.
    index('clusters_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('clusters_creator_idx').on(t.creatorId, t.workspaceId),
    index('clusters_reconcile_idx').on(t.reconcileAt).where(sql`${t.reconcileAt} is not null`),
  ],
);

/** A scheduler or a worker: the Dask side of an instance. */
export const clusterProcesses = pgTable(
  'cluster_processes',
  {
    id: serial('id').primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    role: processRole('role').notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    desiredState: processState('desired_state').notNull().default('started'),
    /** Why it should stop, once it should (scaled down by whom, the cluster stopping...). */
    desiredReason: text('desired_reason').notNull().default(''),
    state: processState('state').notNull().default('pending'),
    stateReason: text('state_reason').notNull().default(''),
    stateUpdated: tstz('state_updated').notNull().defaultNow(),
    address: text('address'),
    created: createdAt(),
  },
  (t) => [
    index('cluster_processes_cluster_idx').on(t.clusterId, t.role),
    uniqueIndex('cluster_processes_name_key').on(t.clusterId, t.name),
  ],
);

/** A machine a process runs on: a local process group, later a cloud VM. One per process. */
export const instances = pgTable(
  'instances',
  {
    id: serial('id').primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    processId: integer('process_id')
      .notNull()
      .references(() => clusterProcesses.id, { onDelete: 'cascade' }),
    role: processRole('role').notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    backendType: varchar('backend_type', { length: 32 }).notNull(),
    instanceType: varchar('instance_type', { length: 64 }).notNull().default('local'),
    /** How the backend names the instance (known before launch, so launching is idempotent). */
    backendId: varchar('backend_id', { length: 128 }).notNull(),
    /** What the backend recorded to find and stop it again (local: pid, pgid, work dir). */
    backendData: jsonb('backend_data').$type<Record<string, unknown>>(),
    desiredState: instanceState('desired_state').notNull().default('ready'),
    state: instanceState('state').notNull().default('queued'),
    stateReason: text('state_reason').notNull().default(''),
    stateUpdated: tstz('state_updated').notNull().defaultNow(),
    privateIpAddress: varchar('private_ip_address', { length: 64 }),
    publicIpAddress: varchar('public_ip_address', { length: 64 }),
    launchedAt: tstz('launched_at'),
    /** When the backend first saw it running (a VM leaves `pending`): its first heartbeat is due from then. */
    runningAt: tstz('running_at'),
    lastHeartbeat: tstz('last_heartbeat'),
    /** When the backend confirmed the instance gone; until then a stopped instance is still stopped again. */
    releasedAt: tstz('released_at'),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('instances_backend_id_key').on(t.backendType, t.backendId),
    index('instances_cluster_idx').on(t.clusterId),
    index('instances_process_idx').on(t.processId),
  ],
);

/** Every state transition of a cluster, its infrastructure, processes and instances. */
export const stateHistory = pgTable(
  'state_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    objectType: statefulObjectType('object_type').notNull(),
    objectId: integer('object_id').notNull(),
    objectName: varchar('object_name', { length: 200 }),
    state: varchar('state', { length: 32 }).notNull(),
    reason: text('reason').notNull().default(''),
    created: createdAt(),
  },
  (t) => [index('state_history_cluster_idx').on(t.clusterId, t.created, t.id)],
);

/** Events about a cluster: what clients report (`clusters/id/{id}/event`) and scheduler analytics. */
export const clusterEvents = pgTable(
  'cluster_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 32 }).notNull(),
    topic: varchar('topic', { length: 200 }).notNull().default(''),
    message: text('message').notNull().default(''),
    level: integer('level').notNull().default(20),
    data: jsonb('data').$type<Record<string, unknown>>(),
    created: createdAt(),
  },
  (t) => [index('cluster_events_cluster_idx').on(t.clusterId, t.created)],
);

/** Output lines of instances, as agents ship them; `timestamp_ms` is epoch milliseconds. */
export const instanceLogs = pgTable(
  'instance_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    instanceId: integer('instance_id')
      .notNull()
      .references(() => instances.id, { onDelete: 'cascade' }),
    timestampMs: bigint('timestamp_ms', { mode: 'number' }).notNull(),
    source: logSource('source').notNull(),
    message: text('message').notNull(),
    /** The batch task (run_tasks.id) whose output the line is; null for everything else. */
    taskId: bigint('task_id', { mode: 'number' }),
  },
  (t) => [
    index('instance_logs_task_idx').on(t.taskId, t.timestampMs, t.id).where(sql`${t.taskId} is not null`),
    index('instance_logs_cluster_time_idx').on(t.clusterId, t.timestampMs, t.id),
    index('instance_logs_instance_time_idx').on(t.instanceId, t.timestampMs, t.id),
    // better-logs' filter_pattern is a substring match: trigrams keep it fast on big clusters.
    index('instance_logs_message_trgm_idx').using('gin', sql`${t.message} gin_trgm_ops`),
  ],
);

export type Cluster = typeof clusters.$inferSelect;
export type ClusterProcess = typeof clusterProcesses.$inferSelect;
export type Instance = typeof instances.$inferSelect;
export type StateRecord = typeof stateHistory.$inferSelect;
