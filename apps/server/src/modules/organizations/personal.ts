import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  accountMemberships,
  accounts,
  organizationMemberships,
  organizations,
  type User,
  users,
} from '../../db/schema/index.js';

/**
 * Every new user gets a personal organization and a workspace whose slug is their username, and
 * administers both; they become the user's defaults.
 */
export async function createPersonalWorkspace(
  tx: Db,
  user: User,
): Promise<{ organizationId: number; accountId: number }> {
  const [organization] = await tx
    .insert(organizations)
    .values({ name: user.username, isPersonal: true })
    .returning({ id: organizations.id });
  const organizationId = organization!.id;
  await tx.insert(organizationMemberships).values({ organizationId, userId: user.id, role: 'admin' });
  const [account] = await tx
    .insert(accounts)
    .values({ slug: user.username, name: user.username, organizationId })
    .returning({ id: accounts.id });
  const accountId = account!.id;
  await tx.insert(accountMemberships).values({ accountId, userId: user.id, isAdmin: true });
  await tx
    .update(users)
    .set({ defaultAccountId: accountId, defaultOrganizationId: organizationId })
    .where(eq(users.id, user.id));
  return { organizationId, accountId };
}
