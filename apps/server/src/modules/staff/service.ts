import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { emailOutbox } from '../../db/schema/index.js';
import { notFound } from '../../http/errors.js';
import { type OffsetQuery, paginate } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { accountSubject, addressSubject, clearFailures } from '../auth/lockout.js';
import { findUserBy } from '../auth/service.js';
import type { emailSchema } from './schemas.js';

/** Clears the failed sign-ins that locked a user out (and those of an address, if given). */
export async function unlockUser(db: Db, userId: number, address: string | undefined) {
  const user = await findUserBy(db, 'id', userId);
  if (!user) throw notFound();
  const subjects = [accountSubject(user.id), `name:${user.username}`, `name:${user.email}`];
  if (address) subjects.push(addressSubject(address));
  const cleared = await clearFailures(db, subjects);
  return { detail: `Unlocked ${user.username}.`, cleared };
}

/** The mail outbox, newest first: what was kept without SMTP and what failed to go out. */
export async function listEmails(db: Db, page: OffsetQuery) {
  const { rows, count } = await paginate(
    page,
    db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)),
    db.$count(emailOutbox),
  );
  const items: z.infer<typeof emailSchema>[] = rows.map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    status: m.status,
    attempts: m.attempts,
    last_error: m.lastError,
    created: isoTime(m.created),
    sent_at: isoTimeOrNull(m.sentAt),
  }));
  return { items, count };
}
