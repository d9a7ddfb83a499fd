import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { tstz } from '../columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 150 }).notNull(),
    /** Stored lower-cased; unique. */
    email: varchar('email', { length: 254 }).notNull(),
    /** argon2id; null means the user has no usable password (signed up through a provider). */
    passwordHash: text('password_hash'),
    fullName: varchar('full_name', { length: 254 }).notNull().default(''),
    preferredName: varchar('preferred_name', { length: 150 }).notNull().default(''),
    isStaff: boolean('is_staff').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    emailVerifiedAt: tstz('email_verified_at'),
    defaultWorkspaceId: integer('default_account_id'),
    defaultOrganizationId: integer('default_organization_id'),
    shouldSeeNotebookPage: boolean('should_see_notebook_page').notNull().default(false),
    dateJoined: tstz('date_joined').notNull().defaultNow(),
    lastLogin: tstz('last_login'),
  },
  (t) => [
    uniqueIndex('users_username_key').on(t.username),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
  ],
);

export const userProfiles = pgTable('user_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  title: varchar('title', { length: 150 }).notNull().default(''),
  company: varchar('company', { length: 150 }).notNull().default(''),
  phoneNumber: varchar('phone_number', { length: 32 }).notNull().default(''),
  workEmail: varchar('work_email', { length: 254 }).notNull().default(''),
  canContact: boolean('can_contact').notNull().default(false),
  avatarUrl: text('avatar_url'),
  /** AES-256-GCM ciphertext; only its presence is ever read back. */
  gitAccessTokenEnc: text('git_access_token_enc'),
  sshPublicKey: text('ssh_public_key'),
});

export type User = typeof users.$inferSelect;
export type UserProfile = typeof userProfiles.$inferSelect;
