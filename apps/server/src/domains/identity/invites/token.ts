import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type OrganizationInvite, organizationInvites } from '../../../db/schema/index.js';
import { randomHex, sha256 } from '../../../lib/crypto.js';

/**
 * The secret of an invitation's mailed link (`?invite=<token>`): 256 random bits, only its
 * SHA-256 is stored, and a new one replaces it at each resend. The invite's id (sequential, seen
 * by admins) opens nothing on its own.
 */
export function mintInviteToken(): { token: string; tokenHash: string } {
  const token = randomHex(32);
  return { token, tokenHash: sha256(token) };
}

/** A well-formed token only: anything else (an id, a guess) is looked up by nobody. */
const TOKEN = /^[0-9a-f]{64}$/;

/** The unexpired invitation a mailed link names, or null. */
export async function inviteByToken(db: Db, token: string): Promise<OrganizationInvite | null> {
  if (!TOKEN.test(token)) return null;
  const [invite] = await db
    .select()
    .from(organizationInvites)
    .where(
      and(eq(organizationInvites.tokenHash, sha256(token)), gt(organizationInvites.expiration, new Date())),
    )
    .limit(1);
  return invite ?? null;
}
