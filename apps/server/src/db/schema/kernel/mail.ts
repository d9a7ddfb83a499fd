import { bigserial, index, integer, pgEnum, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';

export const emailStatus = pgEnum('email_status', ['pending', 'sent', 'kept', 'failed']);

/** Written in the same transaction as the change that causes the mail; a loop delivers it. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: varchar('to', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 300 }).notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: emailStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the outbox loop tries it (next); null once sent, kept or given up. */
    nextAttemptAt: tstz('next_attempt_at').defaultNow(),
    lastError: text('last_error'),
    /** The outbox loop runner holding the mail while it sends it (loops/runner.ts). */
    leaseOwner: varchar('lease_owner', { length: 64 }),
    leaseUntil: tstz('lease_until'),
    sentAt: tstz('sent_at'),
    created: createdAt(),
  },
  (t) => [index('email_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

export type OutboxEmail = typeof emailOutbox.$inferSelect;
