import type { Db } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';

export interface Email {
  to: string;
  subject: string;
  text: string;
}

/** Queues a mail in the caller's transaction; the outbox loop delivers it after commit. */
export async function enqueueEmail(db: Db, email: Email): Promise<void> {
  await db.insert(emailOutbox).values(email);
}
