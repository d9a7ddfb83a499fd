import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

export const interactionTypes = pgTable('interaction_types', {
  name: varchar('name', { length: 100 }).primaryKey(),
  expired: boolean('expired').notNull().default(false),
});

export const interactions = pgTable(
  'interactions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    interactionType: varchar('interaction_type', { length: 100 })
      .notNull()
      .references(() => interactionTypes.name, { onDelete: 'cascade' }),
    created: createdAt(),
  },
  (t) => [index('interactions_user_idx').on(t.userId)],
);

export const userFlags = pgTable(
  'user_flags',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    completed: boolean('completed').notNull().default(false),
    /** Free-form state for flags that carry some (the get-started checklist). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.name] })],
);

/** What the Python client and the console report about what users do (`interactions/interaction`). */
export const clientInteractions = pgTable(
  'client_interactions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: varchar('action', { length: 200 }).notNull(),
    version: integer('version'),
    success: boolean('success'),
    clientVersion: varchar('client_version', { length: 30 }),
    /** Who reported it: `python` (a client version was sent) or `console`. */
    source: varchar('source', { length: 50 }).notNull().default('console'),
    /** The workspace it was about, when the report named one of the user's. */
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    errorMessage: text('error_message'),
    /** The exception's class, from the start of the error message (`ValueError: ...`). */
    errorClass: varchar('error_class', { length: 200 }),
    additionalText: text('additional_text'),
    additionalData: jsonb('additional_data'),
    created: createdAt(),
  },
  (t) => [
    index('client_interactions_user_idx').on(t.userId, t.created),
    index('client_interactions_created_idx').on(t.created),
  ],
);

export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 200 }).notNull().default(''),
  message: text('message').notNull(),
  level: varchar('level', { length: 20 }).notNull().default('info'),
  start: tstz('start').notNull(),
  end: tstz('end'),
  created: createdAt(),
});
