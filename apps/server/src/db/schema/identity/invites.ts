import { boolean, char, index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { organizationRole, organizations, workspaces } from './organizations.js';
import { users } from './users.js';

/**
 * An invitation of an email address without an account into an organization. It is accepted
 * (and deleted) when someone signs up or logs in with that address before `expiration`, or signs
 * up or logs in through the mailed link, which carries the token whose hash is `tokenHash`.
 */
export const organizationInvites = pgTable(
  'organization_invites',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Stored lower-cased. */
    email: varchar('email', { length: 254 }).notNull(),
    role: organizationRole('role').notNull().default('member'),
    invitedById: integer('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
    expiration: tstz('expiration').notNull(),
    /** SHA-256 of the mailed link's token (invites/token.ts); replaced at each resend. */
    tokenHash: char('token_hash', { length: 64 }).notNull(),
  },
  (t) => [
    uniqueIndex('organization_invites_org_email_key').on(t.organizationId, t.email),
    uniqueIndex('organization_invites_token_hash_key').on(t.tokenHash),
    index('organization_invites_email_idx').on(t.email),
  ],
);

/** The workspaces an organization invite grants, with the member's limits in each. */
export const workspaceInvites = pgTable(
  'workspace_invites',
  {
    id: serial('id').primaryKey(),
    organizationInviteId: integer('organization_invite_id')
      .notNull()
      .references(() => organizationInvites.id, { onDelete: 'cascade' }),
    workspaceId: integer('account_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    coreLimit: integer('core_limit').notNull().default(1000),
    /** Null: no limit. */
    creditLimit: integer('credit_limit').default(100000),
    created: createdAt(),
  },
  (t) => [
    uniqueIndex('workspace_invites_invite_account_key').on(t.organizationInviteId, t.workspaceId),
    index('workspace_invites_account_idx').on(t.workspaceId),
  ],
);

export type OrganizationInvite = typeof organizationInvites.$inferSelect;
export type WorkspaceInvite = typeof workspaceInvites.$inferSelect;
