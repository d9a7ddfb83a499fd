import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  accountMemberships,
  accounts,
  organizationMemberships,
  organizations,
  users,
} from '../../db/schema/index.js';

/**
 * After users lose memberships, points each one's default workspace and organization back at
 * something they still belong to (their personal ones first).
 */
export async function repairDefaults(tx: Db, userIds: number[]): Promise<void> {
  for (const userId of new Set(userIds)) {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) continue;
    const workspaces = await tx
      .select({ accountId: accountMemberships.accountId, organizationId: accounts.organizationId })
      .from(accountMemberships)
      .innerJoin(accounts, eq(accounts.id, accountMemberships.accountId))
      .innerJoin(organizations, eq(organizations.id, accounts.organizationId))
      .where(eq(accountMemberships.userId, userId))
      .orderBy(desc(organizations.isPersonal), asc(accounts.name));
    const orgs = await tx
      .select({ id: organizationMemberships.organizationId })
      .from(organizationMemberships)
      .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
      .where(eq(organizationMemberships.userId, userId))
      .orderBy(desc(organizations.isPersonal), asc(organizations.name));
    const account = workspaces.find((w) => w.accountId === user.defaultAccountId) ?? workspaces[0] ?? null;
    const organizationId = orgs.some((o) => o.id === user.defaultOrganizationId)
      ? user.defaultOrganizationId
      : (orgs.find((o) => o.id === account?.organizationId)?.id ?? orgs[0]?.id ?? null);
    const accountId = account?.accountId ?? null;
    if (accountId !== user.defaultAccountId || organizationId !== user.defaultOrganizationId) {
      await tx
        .update(users)
        .set({ defaultAccountId: accountId, defaultOrganizationId: organizationId })
        .where(eq(users.id, userId));
    }
  }
}
