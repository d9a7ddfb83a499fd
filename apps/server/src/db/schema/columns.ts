import { integer, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Every timestamp is timestamptz; on the wire it is an ISO string with an explicit offset. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => tstz('created').notNull().defaultNow();

/**
 * The columns the loop runner (loops/runner.ts) works a table's rows with: when a row is due
 * (null: settled), which runner holds it until when, and its failures in a row with the last
 * reason and since when (users see them while a row is retried).
 */
export const loopColumns = () => ({
  reconcileAt: tstz('reconcile_at').defaultNow(),
  leaseOwner: varchar('lease_owner', { length: 64 }),
  leaseUntil: tstz('lease_until'),
  reconcileAttempts: integer('reconcile_attempts').notNull().default(0),
  reconcileError: text('reconcile_error'),
  reconcileFailingSince: tstz('reconcile_failing_since'),
});
