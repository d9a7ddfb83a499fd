import { bigserial, char, index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { users } from './users.js';

/** Session keys returned by login, sent as `Authorization: Token <key>`; stored as SHA-256. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: char('key_hash', { length: 64 }).notNull(),
    created: createdAt(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [
    uniqueIndex('auth_sessions_key_hash_key').on(t.keyHash),
    index('auth_sessions_user_idx').on(t.userId),
  ],
);

/**
 * API tokens `<identifier>-<secret>`. A token with no user is a pending terminal sign-in: it
 * authenticates nothing until a signed-in user activates it.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    identifier: varchar('identifier', { length: 32 }).notNull(),
    secretHash: char('secret_hash', { length: 64 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 255 }).notNull().default(''),
    created: createdAt(),
    expiry: tstz('expiry'),
    revokedAt: tstz('revoked_at'),
    activatedAt: tstz('activated_at'),
    lastUsedAt: tstz('last_used_at'),
    /**
     * A pending token's user code (SHA-256 of its normalized form): the terminal shows it, the
     * person approving in the browser types it. Null for tokens made signed in.
     */
    userCodeHash: char('user_code_hash', { length: 64 }),
    /** Codes typed for this pending token, right or wrong; approval stops at a limit. */
    codeAttempts: integer('code_attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('api_tokens_identifier_key').on(t.identifier),
    index('api_tokens_user_idx').on(t.userId, t.created),
  ],
);

export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: char('key_hash', { length: 64 }).notNull(),
    created: createdAt(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('email_verifications_key_hash_key').on(t.keyHash)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    created: createdAt(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('password_resets_token_hash_key').on(t.tokenHash)],
);

/** One row per failed login, keyed by `user:<id>` and `ip:<address>`; counted over a window. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    subject: varchar('subject', { length: 200 }).notNull(),
    created: createdAt(),
  },
  (t) => [index('login_failures_subject_idx').on(t.subject, t.created)],
);
