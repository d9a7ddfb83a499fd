import { index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { users } from './users.js';

/** Who a provider says someone is: the provider, its issuer and subject, and the address it gave. */
const providerIdentityColumns = () => ({
  /** sso, google or github. */
  provider: varchar('provider', { length: 20 }).notNull(),
  /** The OpenID issuer, or the GitHub server's address: a subject is unique within it. */
  issuer: varchar('issuer', { length: 500 }).notNull(),
  subject: varchar('subject', { length: 255 }).notNull(),
  /** The verified address the provider gave (at the last sign-in, for Profile to show). */
  email: varchar('email', { length: 254 }).notNull(),
});

/**
 * A sign-in identity at an outside provider (SSO through OpenID Connect, Google, GitHub) linked to
 * a user: the provider's stable subject, never the email, says who signs in.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...providerIdentityColumns(),
    created: createdAt(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [
    uniqueIndex('user_identities_subject_key').on(t.provider, t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

export type UserIdentity = typeof userIdentities.$inferSelect;

/**
 * A provider identity waiting to be linked to the account that has its address, proven by the
 * link emailed to that address: single use (usedAt), expiring, only the token's hash kept.
 */
export const identityLinkTokens = pgTable(
  'identity_link_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...providerIdentityColumns(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    created: createdAt(),
  },
  (t) => [uniqueIndex('identity_link_tokens_hash_key').on(t.tokenHash)],
);
