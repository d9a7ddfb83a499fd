import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';

/**
 * Makes staff the users whose email is among `emails` (lower-cased, as emails are stored), as CUMULUS_STAFF_EMAILS asks
 * at every start: an operator listed there is staff even if they signed up before. Nobody loses
 * staff here. Answers the emails of the users it made staff.
 */
export async function applyStaffEmails(db: Db, emails: ReadonlySet<string>): Promise<string[]> {
  if (emails.size === 0) return [];
  const made = await db
    .update(users)
    .set({ isStaff: true })
    .where(and(inArray(users.email, [...emails]), eq(users.isStaff, false)))
    .returning({ email: users.email });
  return made.map((u) => u.email);
}

/** Makes the user with this email staff (the admin CLI's make-staff). */
export async function makeStaff(db: Db, email: string): Promise<'made' | 'already' | 'unknown'> {
  const [user] = await db
    .select({ id: users.id, isStaff: users.isStaff })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  if (!user) return 'unknown';
  if (user.isStaff) return 'already';
  await db.update(users).set({ isStaff: true }).where(eq(users.id, user.id));
  return 'made';
}
