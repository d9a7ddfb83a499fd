import { asc, eq } from 'drizzle-orm';
import type { Tenancy } from '../../../compute/backend.js';
import type { Db } from '../../../db/client.js';
import { type User, users } from '../../../db/schema/index.js';
import { ApiError } from '../../../http/errors.js';

/**
 * The server's operator: staff, or, on a server with no staff yet, its first account (the person
 * who installed it, on a laptop). Where a backend runs what users submit as the server's own user
 * (local-sandbox.ts, `operator`), only the operator may submit anything: anyone else's code would
 * run with the server's rights.
 */
export async function isOperator(db: Db, user: Pick<User, 'id' | 'isStaff'>): Promise<boolean> {
  if (user.isStaff) return true;
  const [staff] = await db.select({ id: users.id }).from(users).where(eq(users.isStaff, true)).limit(1);
  if (staff) return false;
  const [first] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isActive, true))
    .orderBy(asc(users.id))
    .limit(1);
  return first?.id === user.id;
}

/** Refuses anyone but the operator where tenants' code would run as the server (what: "clusters"). */
export async function assertMayRunThere(
  db: Db,
  backend: { tenancy?(workspaceId: number): Promise<Tenancy> },
  user: Pick<User, 'id' | 'isStaff'>,
  what: 'clusters' | 'software environments',
  workspaceId: number,
): Promise<void> {
  const tenancy = await backend.tenancy?.(workspaceId);
  if (tenancy?.mode !== 'operator' || (await isOperator(db, user))) return;
  throw new ApiError(403, {
    detail:
      `Only this server's operator can start ${what} here: it runs them as its own user (${tenancy.reason}). ` +
      'An operator can run Cumulus as root so that each cluster and build runs as a user of its own (see /docs/operations#who-runs-what).',
    code: 'OPERATOR_ONLY',
  });
}
