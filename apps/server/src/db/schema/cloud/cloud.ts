import {
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
import { createdAt, tstz } from '../columns.js';
import { workspaces } from '../identity/organizations.js';
import { users } from '../identity/users.js';

export const CLOUD_PROVIDERS = ['aws', 'gcp', 'azure'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];
export const cloudProvider = pgEnum('cloud_provider', CLOUD_PROVIDERS);

/**
 * A workspace's credentials for one cloud. The secret part (keys, a service account key, a client
 * secret; for a role, its ARN and external id) is a SecretBox of JSON; `summary` is what may be
 * shown (masked key id, account, project, tenant...).
 */
export const cloudCredentials = pgTable(
  'cloud_credentials',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: cloudProvider('provider').notNull(),
    /** `keys`, `role` (AWS role assumption), `service_account` (GCP), `service_principal` (Azure). */
    kind: varchar('kind', { length: 32 }).notNull(),
    secretBox: text('secret_box').notNull(),
    summary: jsonb('summary').$type<Record<string, string | null>>().notNull().default({}),
    defaultRegion: varchar('default_region', { length: 64 }),
    verifiedAt: tstz('verified_at'),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cloud_credentials_account_provider_key').on(t.workspaceId, t.provider)],
);

/**
 * An attempt at setting up AWS role assumption: the external id the role must require, and, for
 * the CloudFormation route, the stack's role once reported; polled by id until complete or failed.
 */
export const cloudSetupAttempts = pgTable(
  'cloud_setup_attempts',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `role` (start-role-assumption-setup) or `cloudformation` (cf-setup-attempt). */
    kind: varchar('kind', { length: 32 }).notNull(),
    externalId: varchar('external_id', { length: 64 }).notNull(),
    /** `pending` until the role is known (its stack's output, or reported), then `complete` or `error`. */
    state: varchar('state', { length: 16 }).notNull().default('pending'),
    reason: text('reason').notNull().default(''),
    roleArn: varchar('role_arn', { length: 2048 }),
    /** The stack Cumulus created itself with the workspace's keys (null: the user creates it). */
    stackId: varchar('stack_id', { length: 2048 }),
    /** The region of that stack. */
    stackRegion: varchar('stack_region', { length: 32 }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [index('cloud_setup_attempts_account_idx').on(t.workspaceId, t.created)],
);

/**
 * What a workspace set up in its cloud: `global` (AWS: the security group and instance role
 * Cumulus made; GCP: network settings), `settings` (instance types, spot, disk, images, allowed
 * CIDR), and the docker registry (`provider` docker; its password sealed in `secretBox`).
 */
export const cloudSetups = pgTable(
  'cloud_setups',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 16 }).notNull(),
    global: jsonb('global').$type<Record<string, unknown>>(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    secretBox: text('secret_box'),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cloud_setups_account_provider_key').on(t.workspaceId, t.provider)],
);

/** A region a workspace's clusters may run in, with the network they use there. */
export const cloudSetupRegions = pgTable(
  'cloud_setup_regions',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 16 }).notNull(),
    region: varchar('region', { length: 64 }).notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** AWS: vpc_id, subnet_ids, security_group_id (made or chosen); GCP: network, subnet. */
    network: jsonb('network').$type<Record<string, unknown>>().notNull().default({}),
    created: createdAt(),
  },
  (t) => [uniqueIndex('cloud_setup_regions_key').on(t.workspaceId, t.provider, t.region)],
);

export type CloudCredentialRow = typeof cloudCredentials.$inferSelect;
export type CloudSetupAttempt = typeof cloudSetupAttempts.$inferSelect;
export type CloudSetup = typeof cloudSetups.$inferSelect;
export type CloudSetupRegion = typeof cloudSetupRegions.$inferSelect;
