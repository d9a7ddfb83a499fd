import { and, count, desc, eq, gte, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusters, emailOutbox, loginFailures, type User, users, workspaces } from '../../db/schema/index.js';
import { fieldError, notFound } from '../../http/errors.js';
import { type OffsetQuery, paginate } from '../../http/pagination.js';
import type { z } from '../../http/zod.js';
import { contains } from '../../lib/sql.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { presentSummaries } from '../clusters/present.js';
import {
  ACCOUNT_FAILURE_LIMIT,
  accountSubject,
  addressSubject,
  clearFailures,
  LOCKOUT_WINDOW,
} from '../identity/auth/lockout.js';
import { findUserBy } from '../identity/auth/service.js';
import type { attentionClusterSchema, emailSchema, staffUserSchema } from './schemas.js';

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

/** The users whose failed sign-ins lock them out right now (auth/lockout.ts). */
async function lockedOut(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ subject: loginFailures.subject, n: count() })
    .from(loginFailures)
    .where(
      and(
        inArray(loginFailures.subject, ids.map(accountSubject)),
        gte(loginFailures.created, new Date(Date.now() - LOCKOUT_WINDOW)),
      ),
    )
    .groupBy(loginFailures.subject);
  return new Set(rows.filter((r) => r.n >= ACCOUNT_FAILURE_LIMIT).map((r) => Number(r.subject.slice(5))));
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
  const where = query.search
    ? or(
        contains(users.username, query.search),
        contains(users.email, query.search),
        contains(users.fullName, query.search),
      )
    : undefined;
  const { rows, count: total } = await paginate(
    query,
    db.select().from(users).where(where).orderBy(desc(users.dateJoined), desc(users.id)),
    db.$count(users, where),
  );
  const locked = await lockedOut(
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
  const [row] = await db
    .update(users)
    .set({
      ...(change.is_staff !== undefined && { isStaff: change.is_staff }),
      ...(change.is_active !== undefined && { isActive: change.is_active }),
      ...(change.should_see_notebook_page !== undefined && {
        shouldSeeNotebookPage: change.should_see_notebook_page,
      }),
    })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw notFound();
  return presentUser(row, await lockedOut(db, [row.id]));
}

/**
 * Clusters needing attention: those that failed (`error`), newest first, which staff have not
 * marked seen yet (`seen` true: those they have).
 */
export async function listAttentionClusters(db: Db, query: OffsetQuery & { seen: boolean }) {
  const where = and(
    eq(clusters.state, 'error'),
    query.seen ? isNotNull(clusters.staffSeenAt) : isNull(clusters.staffSeenAt),
  );
  const { rows, count: total } = await paginate(
    query,
    db.select().from(clusters).where(where).orderBy(desc(clusters.stateUpdated), desc(clusters.id)),
    db.$count(clusters, where),
  );
  const workspaceIds = [...new Set(rows.map((c) => c.workspaceId))];
  const seenByIds = [...new Set(rows.flatMap((c) => (c.staffSeenById ? [c.staffSeenById] : [])))];
  const [accounts, seenBy] = await Promise.all([
    workspaceIds.length === 0
      ? []
      : db
          .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
          .from(workspaces)
          .where(inArray(workspaces.id, workspaceIds)),
    seenByIds.length === 0
      ? []
      : db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, seenByIds)),
  ]);
  const summaries = await presentSummaries(db, rows, new Map(accounts.map((a) => [a.id, a])));
  const seenById = new Map(seenBy.map((u) => [u.id, u]));
  const items: z.infer<typeof attentionClusterSchema>[] = summaries.map((summary, index) => {
    const row = rows[index]!;
    return {
      ...summary,
      reason: row.stateReason,
      staff_has_seen: row.staffSeenAt !== null,
      staff_seen_at: isoTimeOrNull(row.staffSeenAt),
      staff_seen_by: row.staffSeenById ? (seenById.get(row.staffSeenById) ?? null) : null,
    };
  });
  return { items, count: total };
}
