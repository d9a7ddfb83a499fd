import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  type OrganizationInvite,
  organizationInvites,
  organizationMemberships,
  type User,
  workspaceInvites,
  workspaceMemberships,
} from '../../../db/schema/index.js';
import { inviteByToken } from './token.js';

/**
 * Turns the unexpired invitations of the user's email address into memberships, when the address
 * is confirmed and at each sign-in, inside the caller's transaction. An account whose address is
 * not confirmed accepts none: whoever registered it may not own the address. Memberships the user
 * already has are kept as they are. Expired invitations stay behind for an admin to resend or delete.
 */
export async function acceptInvites(tx: Db, user: User): Promise<number> {
  if (!user.emailVerifiedAt) return 0;
  const invites = await tx
    .select()
    .from(organizationInvites)
    .where(
      and(
        eq(organizationInvites.email, user.email.toLowerCase()),
        gt(organizationInvites.expiration, new Date()),
      ),
    );
  for (const invite of invites) await accept(tx, user, invite);
  return invites.length;
}

/**
 * Accepts the invitation a mailed link's token names for the user who signed up or in through
 * it, whatever their address (the token shows the mail reached them). An unknown or expired
 * token, or an invite's id, accepts nothing.
 */
export async function acceptInviteByToken(tx: Db, user: User, token: string | null | undefined) {
  const invite = token ? await inviteByToken(tx, token) : null;
  if (invite) await accept(tx, user, invite);
  return invite !== null;
}

async function accept(tx: Db, user: User, invite: OrganizationInvite) {
  await tx
    .insert(organizationMemberships)
    .values({ organizationId: invite.organizationId, userId: user.id, role: invite.role })
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(workspaceInvites)
    .where(eq(workspaceInvites.organizationInviteId, invite.id));
  if (rows.length > 0) {
    await tx
      .insert(workspaceMemberships)
      .values(
        rows.map((r) => ({
          workspaceId: r.workspaceId,
          userId: user.id,
          isAdmin: r.isAdmin,
          coreLimit: r.coreLimit,
          creditLimit: r.creditLimit,
        })),
      )
      .onConflictDoNothing();
  }
  await tx.delete(organizationInvites).where(eq(organizationInvites.id, invite.id));
}
