import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../columns.js';
import { users } from './users.js';

export const organizationRole = pgEnum('organization_role', ['admin', 'member']);
export const featureTier = pgEnum('feature_tier', [
  'essentials',
  'free',
  'basic',
  'professional',
  'enterprise',
]);

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  isPersonal: boolean('is_personal').notNull().default(false),
  created: createdAt(),
});

export const organizationMemberships = pgTable(
  'organization_memberships',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: organizationRole('role').notNull().default('member'),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('organization_memberships_org_user_key').on(t.organizationId, t.userId),
    index('organization_memberships_user_idx').on(t.userId),
  ],
);

/** A workspace. The API calls it an account; `slug` is the path key. */
export const workspaces = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 64 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(true),
    avatarUrl: text('avatar_url'),
    /** Workspace-wide monthly credit limit; null means none. */
    creditLimit: integer('credit_limit'),
    created: createdAt(),
    /** The backend new clusters run on: this server's own (`in_process`) until a cloud is set up. */
    activeBackend: varchar('active_backend', { length: 32 }).notNull().default('in_process'),
    /** Credentials and the setup clusters need are in place in the workspace's cloud. */
    setupComplete: boolean('setup_complete').notNull().default(false),
    /** The workspace has cloud credentials of its own. */
    configuredCustomerHosted: boolean('configured_customer_hosted').notNull().default(false),
  },
  (t) => [
    uniqueIndex('accounts_slug_key').on(t.slug),
    // Workspace names are globally unique, whatever their case.
    uniqueIndex('accounts_name_key').on(sql`lower(${t.name})`),
    index('accounts_organization_idx').on(t.organizationId),
  ],
);

export const workspaceMemberships = pgTable(
  'account_memberships',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The member's monthly credits in the workspace; null: no limit. */
    creditLimit: integer('credit_limit').default(100000),
    coreLimit: integer('core_limit').notNull().default(1000),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('account_memberships_account_user_key').on(t.workspaceId, t.userId),
    index('account_memberships_user_idx').on(t.userId),
  ],
);

export type Organization = typeof organizations.$inferSelect;
export type Workspace = typeof workspaces.$inferSelect;
export type WorkspaceMembership = typeof workspaceMemberships.$inferSelect;
export type OrganizationMembership = typeof organizationMemberships.$inferSelect;
