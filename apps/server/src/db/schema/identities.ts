import { index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.js';
import { users } from './users.js';

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
    /** sso, google or github. */
    provider: varchar('provider', { length: 20 }).notNull(),
    /** The OpenID issuer, or the GitHub server's address: a subject is unique within it. */
    issuer: varchar('issuer', { length: 500 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    /** The verified address the provider gave at the last sign-in, for Profile to show. */
    email: varchar('email', { length: 254 }).notNull(),
    created: createdAt(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [
    uniqueIndex('user_identities_subject_key').on(t.provider, t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

export type UserIdentity = typeof userIdentities.$inferSelect;
