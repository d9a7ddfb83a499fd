import { index, integer, pgTable, primaryKey, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from '../columns.js';
import { organizations } from './organizations.js';

/** Staff labels for organizations; each becomes a custom staff scope in staff scope pickers. */
export const customGroups = pgTable(
  'custom_groups',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    created: createdAt(),
  },
  (t) => [uniqueIndex('custom_groups_name_key').on(t.name)],
);

export const organizationCustomGroups = pgTable(
  'organization_custom_groups',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => customGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.groupId] }),
    index('organization_custom_groups_group_idx').on(t.groupId),
  ],
);

export type CustomGroup = typeof customGroups.$inferSelect;
