import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { organizations, users, workspaceInvites, workspaces } from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { isoTime } from '../../../lib/time.js';
import { inviteByToken } from './token.js';

/**
 * What the sign-up and sign-in pages show of the invitation a mailed link names (`?invite=`):
 * who invites whom where. Only the token finds it; unknown or expired tokens are not found.
 */
export async function previewInvite(db: Db, token: string) {
  const invite = await inviteByToken(db, token);
  if (!invite) throw notFound();
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, invite.organizationId));
  const [inviter] = invite.invitedById
    ? await db
        .select({ fullName: users.fullName, username: users.username })
        .from(users)
        .where(eq(users.id, invite.invitedById))
    : [];
  const invited = await db
    .select({ name: workspaces.name })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .where(eq(workspaceInvites.organizationInviteId, invite.id))
    .orderBy(asc(workspaces.name));
  return {
    organization: organization?.name ?? '',
    inviter: inviter ? inviter.fullName || inviter.username : null,
    email: invite.email,
    workspaces: invited.map((w) => w.name),
    expiration: isoTime(invite.expiration),
  };
}
