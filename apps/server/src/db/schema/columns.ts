import { timestamp } from 'drizzle-orm/pg-core';

/** Every timestamp is timestamptz; on the wire it is an ISO string with an explicit offset. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => tstz('created').notNull().defaultNow();
