import type { Db } from '../../db/client.js';
import type { User } from '../../db/schema/index.js';
import { fieldError, notFound } from '../../http/errors.js';
import type { OffsetQuery } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { listOutbox } from '../../mail/outbox.js';
import {
  unlockUser as clearLockout,
  findUserBy,
  lockedOutUsers,
  searchUsers,
  setUserStanding,
} from '../identity/index.js';
import type { emailSchema, staffUserSchema } from './schemas.js';

/** Clears the failed sign-ins that locked a user out (and those of an address, if given). */
export async function unlockUser(db: Db, userId: number, address: string | undefined) {
  const user = await findUserBy(db, 'id', userId);
  if (!user) throw notFound();
  const cleared = await clearLockout(db, user, address);
  return { detail: `Unlocked ${user.username}.`, cleared };
}

/** The mail outbox, newest first: what was kept without SMTP and what failed to go out. */
export async function listEmails(db: Db, page: OffsetQuery) {
  const { rows, count } = await listOutbox(db, page);
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

function presentUser(user: User, locked: Set<number>): z.infer<typeof staffUserSchema> {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    full_name: user.fullName,
    is_staff: user.isStaff,
    is_active: user.isActive,
    locked_out: locked.has(user.id),
    should_see_notebook_page: user.shouldSeeNotebookPage,
    email_verified: user.emailVerifiedAt !== null,
    date_joined: isoTime(user.dateJoined),
    last_login: isoTimeOrNull(user.lastLogin),
  };
}

/** Every user, newest first, found by part of their username, email or full name. */
export async function listUsers(db: Db, query: OffsetQuery & { search?: string | undefined }) {
  const { rows, count: total } = await searchUsers(db, query);
  const locked = await lockedOutUsers(
    db,
    rows.map((u) => u.id),
  );
  return { items: rows.map((u) => presentUser(u, locked)), count: total };
}

/**
 * Locks (`is_active: false`: no sign-in, and every session and token of theirs is refused at
 * once) or unlocks a user, gives or takes the staff flag (staff cannot do either to themselves,
 * so there is always someone left to undo it), or shows or hides their Notebooks page.
 */
export async function updateUser(
  db: Db,
  staff: User,
  userId: number,
  change: {
    is_staff?: boolean | undefined;
    is_active?: boolean | undefined;
    should_see_notebook_page?: boolean | undefined;
  },
) {
  if (userId === staff.id && change.is_staff === false)
    throw fieldError('is_staff', 'You cannot remove your own staff flag.');
  if (userId === staff.id && change.is_active === false)
    throw fieldError('is_active', 'You cannot lock your own account.');
  const row = await setUserStanding(db, userId, {
    ...(change.is_staff !== undefined && { isStaff: change.is_staff }),
    ...(change.is_active !== undefined && { isActive: change.is_active }),
    ...(change.should_see_notebook_page !== undefined && {
      shouldSeeNotebookPage: change.should_see_notebook_page,
    }),
  });
  if (!row) throw notFound();
  return presentUser(row, await lockedOutUsers(db, [row.id]));
}
