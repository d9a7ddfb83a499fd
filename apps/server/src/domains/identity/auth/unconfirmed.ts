import { and, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';

/** Which of these addresses (lower-cased) belong to people who have not confirmed them yet. */
export async function unconfirmedEmails(db: Db, emails: string[]): Promise<Set<string>> {
  const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, wanted), isNull(users.emailVerifiedAt)));
  return new Set(rows.map((r) => r.email));
}
