import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * An organization's own OpenID Connect provider: people whose address is in one of the
 * organization's proven domains sign in through it. The client secret is kept sealed (SecretBox,
 * purpose `org-sso-secret-v1`) and never leaves the server.
 */
export const organizationSsoConnections = pgTable('organization_sso_connections', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  issuer: varchar('issuer', { length: 500 }).notNull(),
  clientId: varchar('client_id', { length: 255 }).notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  /** The organization's workspaces a person joins (as member) at their first sign-in through it. */
  joinWorkspaceIds: integer('join_workspace_ids').array().notNull().default([]),
  /** Members of the organization sign in only through this connection (no password, no other provider). */
  requireSso: boolean('require_sso').notNull().default(false),
  created: createdAt(),
  updated: tstz('updated').notNull().defaultNow(),
});

/** An email domain an organization claims; its connection serves it once proven (DNS TXT or staff). */
export const organizationSsoDomains = pgTable(
  'organization_sso_domains',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    domain: varchar('domain', { length: 253 }).notNull(),
    /** The value the TXT record must hold: `cumulus-domain-verification=<token>`. */
    token: varchar('token', { length: 64 }).notNull(),
    verifiedAt: tstz('verified_at'),
    /** dns, or staff (a staff member's decision, recorded with who made it). */
    verifiedBy: varchar('verified_by', { length: 10 }),
    verifiedByStaffId: integer('verified_by_staff_id').references(() => users.id, { onDelete: 'set null' }),
    created: createdAt(),
  },
  (t) => [
    // A domain is claimed once per organization; only one organization can have it proven.
    uniqueIndex('organization_sso_domains_org_domain_key').on(t.organizationId, t.domain),
    index('organization_sso_domains_domain_idx').on(t.domain),
  ],
);

export type OrganizationSsoConnection = typeof organizationSsoConnections.$inferSelect;
export type OrganizationSsoDomain = typeof organizationSsoDomains.$inferSelect;
