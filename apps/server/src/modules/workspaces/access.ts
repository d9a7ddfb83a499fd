import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  type Account,
  type AccountMembership,
  accountMemberships,
  accounts,
  type Organization,
  organizationMemberships,
  organizations,
  type User,
} from '../../db/schema/index.js';
import { ApiError, permissionDenied } from '../../http/errors.js';

export interface WorkspaceAccess {
  account: Account;
  organization: Organization;
  membership: AccountMembership | null;
  isOrganizationAdmin: boolean;
  /** Workspace admin or organization admin. */
  isAdmin: boolean;
}

export const workspaceNotFound = (name: string) =>
  new ApiError(404, { detail: `Account named ${name} not found`, code: 'NOT_FOUND' });

/**
 * The caller's standing in a workspace named by slug. Members, admins of its organization and
 * staff may read it; everyone else gets a 404, so names of other workspaces do not leak.
 */
export async function workspaceAccess(
  db: Db,
  user: User,
  slug: string,
  need: 'read' | 'admin' = 'read',
): Promise<WorkspaceAccess> {
  const [row] = await db
    .select({
      account: accounts,
      organization: organizations,
      membership: accountMemberships,
      orgRole: organizationMemberships.role,
    })
    .from(accounts)
    .innerJoin(organizations, eq(organizations.id, accounts.organizationId))
    .leftJoin(
      accountMemberships,
      and(eq(accountMemberships.accountId, accounts.id), eq(accountMemberships.userId, user.id)),
    )
    .leftJoin(
      organizationMemberships,
      and(
        eq(organizationMemberships.organizationId, accounts.organizationId),
        eq(organizationMemberships.userId, user.id),
      ),
    )
    .where(eq(accounts.slug, slug))
    .limit(1);
  if (!row) throw workspaceNotFound(slug);
  const isOrganizationAdmin = row.orgRole === 'admin';
  if (!row.membership && !isOrganizationAdmin && !user.isStaff) throw workspaceNotFound(slug);
  const access: WorkspaceAccess = {
    account: row.account,
    organization: row.organization,
    membership: row.membership,
    isOrganizationAdmin,
    isAdmin: isOrganizationAdmin || row.membership?.isAdmin === true,
  };
  if (need === 'admin' && !access.isAdmin)
    throw permissionDenied(`You are not an admin of ${row.account.name}`);
  return access;
}
