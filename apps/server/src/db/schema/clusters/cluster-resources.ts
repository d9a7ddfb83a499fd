import { boolean, integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';
import { clusters, processRole } from './clusters.js';

/**
 * What a cluster's instances are made of, one row per role, written when the cluster is created
 * from what the backend knows of the machines it launches on (`instance_specs` calls).
 */
export const instanceSpecs = pgTable(
  'instance_specs',
  {
    id: serial('id').primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    role: processRole('role').notNull(),
    backendType: varchar('backend_type', { length: 32 }).notNull(),
    instanceType: varchar('instance_type', { length: 64 }).notNull(),
    /** The instance types the client asked for, in its order of preference. */
    requestedTypes: jsonb('requested_types').$type<string[]>().notNull().default([]),
    cores: integer('cores').notNull(),
    memoryMib: integer('memory_mib').notNull(),
    gpus: integer('gpus').notNull().default(0),
    arch: varchar('arch', { length: 16 }).notNull(),
    /** The role's instances run on spot capacity (workers asking for it on a backend that has it). */
    spot: boolean('spot').notNull().default(false),
    diskSizeGib: integer('disk_size_gib'),
    /** Dask's share of the machine: worker threads and memory limit as asked (null: Dask's default). */
    daskThreads: integer('dask_threads'),
    daskMemoryLimit: varchar('dask_memory_limit', { length: 64 }),
    created: createdAt(),
  },
  (t) => [uniqueIndex('instance_specs_cluster_role_key').on(t.clusterId, t.role)],
);

/** Files the control plane keeps for a cluster's instances, fetched by key (`cluster_facing/db-file-ref`). */
export const clusterFiles = pgTable(
  'cluster_files',
  {
    id: serial('id').primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 200 }).notNull(),
    /** Where the instance puts it, relative to its work dir. */
    path: varchar('path', { length: 500 }).notNull(),
    content: text('content').notNull(),
    created: createdAt(),
  },
  (t) => [uniqueIndex('cluster_files_cluster_key_key').on(t.clusterId, t.key)],
);

/**
 * Dashboard subdomains workspaces asked a certificate for (`https-certificate`). A subdomain is a
 * name in one DNS zone, so it belongs to one workspace at a time.
 */
export const httpsCertificates = pgTable(
  'https_certificates',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    subdomain: varchar('subdomain', { length: 63 }).notNull(),
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 16 }).notNull(),
    message: text('message').notNull().default(''),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('https_certificates_subdomain_key').on(t.subdomain)],
);

export type InstanceSpec = typeof instanceSpecs.$inferSelect;
export type ClusterFile = typeof clusterFiles.$inferSelect;
export type HttpsCertificate = typeof httpsCertificates.$inferSelect;
