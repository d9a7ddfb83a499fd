import { desc } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';
import { type OffsetQuery, paginate } from '../http/pagination.js';

export interface Email {
  to: string;
  subject: string;
  text: string;
}

/** Queues a mail in the caller's transaction; the outbox loop delivers it after commit. */
export async function enqueueEmail(db: Db, email: Email): Promise<void> {
  await db.insert(emailOutbox).values(email);
}

/** The outbox, newest first: what was kept without SMTP and what failed to go out (staff read it). */
export const listOutbox = (db: Db, page: OffsetQuery) =>
  paginate(page, db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)), db.$count(emailOutbox));
