import { integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

/** What the last check of a Slurm cluster found (its login node reached, the partition there). */
export interface SlurmClusterHealth {
  status: 'ok' | 'unreachable' | 'host_key_mismatch' | 'refused' | 'no_slurm';
  message: string;
  /** `sinfo`'s line for the partition: its state and nodes. */
  partition_state?: string;
}

/**
 * A Slurm cluster a workspace's clusters run on (the `slurm` backend), one per workspace: its
 * login node, where sbatch, squeue and scancel run, is this machine (`login` `local`, allowed by the
 * operator's CUMULUS_SLURM_LOCAL_LOGIN) or reached over SSH as `user` with a private key sealed like
 * cloud secrets (`key_box`), the host presenting exactly `host_key`; or it is slurmrestd (`login`
 * `rest`) at `rest_url`, called as the Slurm user `user` with a JWT sealed in `key_box`. The rest is
 * what every job asks, and what a node offers.
 */
export const slurmClusters = pgTable(
  'slurm_clusters',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    login: varchar('login', { length: 8 }).$type<'local' | 'ssh' | 'rest'>().notNull(),
    address: varchar('address', { length: 255 }),
    port: integer('port'),
    user: varchar('username', { length: 64 }),
    hostKey: text('host_key'),
    /** slurmrestd's base URL (login `rest`). */
    restUrl: varchar('rest_url', { length: 255 }),
    keyBox: text('key_box'),
    partition: varchar('partition', { length: 64 }),
    slurmAccount: varchar('slurm_account', { length: 64 }),
    qos: varchar('qos', { length: 64 }),
    timeLimitMinutes: integer('time_limit_minutes'),
    nodeCores: integer('node_cores').notNull(),
    nodeMemoryMib: integer('node_memory_mib').notNull(),
    /** GPUs one node offers (Slurm's `gpu` GRES): a worker asks at most this. */
    nodeGpus: integer('node_gpus').notNull().default(0),
    /** The interpreter with `distributed` on the compute nodes. */
    python: varchar('python', { length: 255 }).notNull().default('python3'),
    health: jsonb('health').$type<SlurmClusterHealth | null>(),
    checkedAt: tstz('checked_at'),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
  },
  (t) => [uniqueIndex('slurm_clusters_account_key').on(t.workspaceId)],
);

export type SlurmClusterRow = typeof slurmClusters.$inferSelect;
