import { desc, eq, or } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type User, users } from '../../../db/schema/index.js';
import { type OffsetQuery, paginate } from '../../../http/pagination.js';
import { contains } from '../../../lib/sql.js';

// What staff read and change of users (the Staff page), through identity.

/** Every user, newest first, found by part of their username, email or full name. */
export function searchUsers(db: Db, query: OffsetQuery & { search?: string | undefined }) {
  const where = query.search
    ? or(
        contains(users.username, query.search),
        contains(users.email, query.search),
        contains(users.fullName, query.search),
      )
    : undefined;
  return paginate(
    query,
    db.select().from(users).where(where).orderBy(desc(users.dateJoined), desc(users.id)),
    db.$count(users, where),
  );
}

/** Sets a user's staff flag, whether they may sign in, and whether they see the Notebooks page. */
export async function setUserStanding(
  db: Db,
  userId: number,
  change: Partial<Pick<User, 'isStaff' | 'isActive' | 'shouldSeeNotebookPage'>>,
): Promise<User | null> {
  const [row] = await db.update(users).set(change).where(eq(users.id, userId)).returning();
  return row ?? null;
}
