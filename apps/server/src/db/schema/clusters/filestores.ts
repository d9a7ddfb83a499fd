import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';
import { clusters } from './clusters.js';

/**
 * Named stores of files per workspace: inputs synced onto a
 * cluster's instances before their first task, outputs synced back after each task. The files
 * live under `<dataDir>/filestores/<id>/` on this server, reached through signed links.
 */
export const filestores = pgTable(
  'filestores',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 200 }).notNull(),
    region: varchar('region', { length: 64 }).notNull().default(''),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
  },
  (t) => [uniqueIndex('filestores_account_name_key').on(t.workspaceId, t.name)],
);

/** A store attached to a cluster: as its input, its output, or both, at a path on its instances. */
export const filestoreAttachments = pgTable(
  'filestore_attachments',
  {
    id: serial('id').primaryKey(),
    clusterId: integer('cluster_id')
      .notNull()
      .references(() => clusters.id, { onDelete: 'cascade' }),
    filestoreId: integer('filestore_id')
      .notNull()
      .references(() => filestores.id, { onDelete: 'cascade' }),
    input: boolean('input').notNull().default(false),
    output: boolean('output').notNull().default(false),
    /** Where the files are on instances, relative to the task work directory unless absolute. */
    path: text('path').notNull().default('.'),
    primary: boolean('primary').notNull().default(false),
    /** The latest sync (`status/start` … `status/finish`) has finished. */
    complete: boolean('complete').notNull().default(false),
    syncStarted: tstz('sync_started'),
    syncFinished: tstz('sync_finished'),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('filestore_attachments_cluster_store_key').on(t.clusterId, t.filestoreId),
    index('filestore_attachments_store_idx').on(t.filestoreId),
  ],
);

export type Filestore = typeof filestores.$inferSelect;
export type FilestoreAttachment = typeof filestoreAttachments.$inferSelect;
