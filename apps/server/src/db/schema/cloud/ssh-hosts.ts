import { index, integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

/** What the last check of a host found (reachable with the pinned key, Python with Dask, what is free). */
export interface SshHostHealth {
  status: 'ok' | 'unreachable' | 'host_key_mismatch' | 'refused' | 'no_dask';
  message: string;
  python_version?: string;
  dask_version?: string;
  free_cores?: number;
  free_memory_mib?: number;
}

/**
 * A machine of the workspace's own that its clusters run on (the `ssh` backend): reached as `user`
 * at `address:port` with a private key sealed like cloud secrets (`key_box`), the host presenting
 * exactly `host_key`. Cores, memory and GPUs are what Cumulus may place there.
 */
export const sshHosts = pgTable(
  'ssh_hosts',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    address: varchar('address', { length: 255 }).notNull(),
    port: integer('port').notNull().default(22),
    user: varchar('username', { length: 64 }).notNull(),
    hostKey: text('host_key').notNull(),
    keyBox: text('key_box').notNull(),
    cores: integer('cores').notNull(),
    memoryMib: integer('memory_mib').notNull(),
    gpus: integer('gpus').notNull().default(0),
    labels: jsonb('labels').$type<string[]>().notNull().default([]),
    /** The interpreter with `distributed` the agent runs with. */
    python: varchar('python', { length: 255 }).notNull().default('python3'),
    health: jsonb('health').$type<SshHostHealth | null>(),
    checkedAt: tstz('checked_at'),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
  },
  (t) => [uniqueIndex('ssh_hosts_account_name_key').on(t.workspaceId, t.name)],
);

/**
 * What runs on a host: one row per launched instance (its backend id) with the cores, memory and
 * GPUs it was given (the GPUs' device indices on the host, its `CUDA_VISIBLE_DEVICES`), written
 * before the agent starts and removed when it is gone; placement bin-packs against it.
 */
export const sshPlacements = pgTable(
  'ssh_placements',
  {
    backendId: varchar('backend_id', { length: 128 }).primaryKey(),
    hostId: integer('host_id')
      .notNull()
      .references(() => sshHosts.id, { onDelete: 'cascade' }),
    clusterId: integer('cluster_id').notNull(),
    cores: integer('cores').notNull(),
    memoryMib: integer('memory_mib').notNull(),
    gpus: integer('gpus').notNull().default(0),
    /** The host's GPU indices it was given (as many as `gpus`), none shared with another placement. */
    gpuDevices: jsonb('gpu_devices').$type<number[]>().notNull().default([]),
    created: createdAt(),
  },
  (t) => [index('ssh_placements_host_idx').on(t.hostId)],
);

export type SshHostRow = typeof sshHosts.$inferSelect;
