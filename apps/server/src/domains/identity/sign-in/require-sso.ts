import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  organizationMemberships,
  organizationSsoConnections,
  organizations,
} from '../../../db/schema/index.js';
import { ApiError } from '../../../http/errors.js';

/** The console turns the detail 'SSO required' into 'SSO is required for this user.' */
export const SSO_REQUIRED_DETAIL = 'SSO required';

/**
 * Refuses a sign-in (password, or a provider other than the organization's own connection) of a
 * member of an organization that requires SSO; `viaOrganizationId` is the organization whose
 * connection this sign-in came through, if any.
 */
export async function assertSsoNotRequired(
  db: Db,
  userId: number,
  viaOrganizationId: number | null = null,
): Promise<void> {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizationMemberships)
    .innerJoin(organizations, eq(organizations.id, organizationMemberships.organizationId))
    .innerJoin(
      organizationSsoConnections,
      eq(organizationSsoConnections.organizationId, organizationMemberships.organizationId),
    )
    .where(and(eq(organizationMemberships.userId, userId), eq(organizationSsoConnections.requireSso, true)));
  const refusing = rows.find((row) => row.id !== viaOrganizationId);
  if (!refusing) return;
  const message = `${refusing.name} requires single sign-on: use Continue with SSO on the login page and enter your work email.`;
  throw new ApiError(401, { detail: SSO_REQUIRED_DETAIL, non_field_errors: [message], code: 'SSO_REQUIRED' });
}
