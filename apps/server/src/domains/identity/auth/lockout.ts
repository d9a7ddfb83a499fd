import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { loginFailures } from '../../../db/schema/index.js';
import { ApiError } from '../../../http/errors.js';
import { minutes } from '../../../lib/time.js';

/** Failed logins counted over this window. */
export const LOCKOUT_WINDOW = minutes(15);
/** Failures allowed for one account before it is locked for the window. */
export const ACCOUNT_FAILURE_LIMIT = 5;
/** Failures allowed from one address (across workspaces) before it is locked for the window. */
export const ADDRESS_FAILURE_LIMIT = 20;

export interface LoginSubjects {
  /** `user:<id>` for a known account, else `name:<what was typed>`, so unknown names lock alike. */
  account: string;
  address: string;
}

export const accountSubject = (userId: number) => `user:${userId}`;
export const addressSubject = (ip: string) => `ip:${ip}`;

export async function assertNotLocked(db: Db, subjects: LoginSubjects): Promise<void> {
  const since = new Date(Date.now() - LOCKOUT_WINDOW);
  const rows = await db
    .select({ subject: loginFailures.subject, n: count() })
    .from(loginFailures)
    .where(
      and(
        inArray(loginFailures.subject, [subjects.account, subjects.address]),
        gte(loginFailures.created, since),
      ),
    )
    .groupBy(loginFailures.subject);
  const failures = new Map(rows.map((r) => [r.subject, r.n]));
  if (
    (failures.get(subjects.account) ?? 0) >= ACCOUNT_FAILURE_LIMIT ||
    (failures.get(subjects.address) ?? 0) >= ADDRESS_FAILURE_LIMIT
  ) {
    throw new ApiError(
      429,
      {
        detail:
          'Workspace locked: too many failed login attempts. Try again later or contact support to unlock it.',
        code: 'LOGIN_LOCKED',
      },
      { 'retry-after': String(LOCKOUT_WINDOW / 1000) },
    );
  }
}

export async function recordFailure(db: Db, subjects: LoginSubjects): Promise<void> {
  await db.insert(loginFailures).values([{ subject: subjects.account }, { subject: subjects.address }]);
  // Keep the table small: rows past the window no longer count.
  await db.delete(loginFailures).where(lt(loginFailures.created, new Date(Date.now() - LOCKOUT_WINDOW)));
}

export async function clearFailures(db: Db, subjects: string[]): Promise<number> {
  if (subjects.length === 0) return 0;
  const deleted = await db
    .delete(loginFailures)
    .where(inArray(loginFailures.subject, subjects))
    .returning({ id: loginFailures.id });
  return deleted.length;
}

export const clearAccountFailures = (db: Db, userId: number) =>
  db.delete(loginFailures).where(eq(loginFailures.subject, accountSubject(userId)));

/** Of these users, the ones whose failed sign-ins lock them out right now. */
export async function lockedOutUsers(db: Db, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ subject: loginFailures.subject, n: count() })
    .from(loginFailures)
    .where(
      and(
        inArray(loginFailures.subject, userIds.map(accountSubject)),
        gte(loginFailures.created, new Date(Date.now() - LOCKOUT_WINDOW)),
      ),
    )
    .groupBy(loginFailures.subject);
  return new Set(rows.filter((r) => r.n >= ACCOUNT_FAILURE_LIMIT).map((r) => Number(r.subject.slice(5))));
}

/** Clears the failed sign-ins that locked a user out (and those of an address, if given). */
export async function unlockUser(
  db: Db,
  user: { id: number; username: string; email: string },
  address?: string,
) {
  const subjects = [accountSubject(user.id), `name:${user.username}`, `name:${user.email}`];
  if (address) subjects.push(addressSubject(address));
  return clearFailures(db, subjects);
}
