import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { softwareBuilds } from '../../db/schema/index.js';
import type { Principal, TokenResolver } from '../../http/auth.js';
import { invalidToken, notFound } from '../../http/errors.js';
import { sha256 } from '../../lib/crypto.js';

/**
 * Software build tokens: one per attempt, random, stored as SHA-256 on the build; they work while
 * the build runs and, for downloading what it made, once it is built. A build that failed or was
 * started again (a new token) no longer answers to the old one.
 */
export const resolveSoftwareToken: TokenResolver = async (
  db: Db,
  token: string,
): Promise<Principal | null> => {
  const [row] = await db
    .select({ id: softwareBuilds.id })
    .from(softwareBuilds)
    .where(
      and(eq(softwareBuilds.tokenHash, sha256(token)), inArray(softwareBuilds.state, ['building', 'built'])),
    )
    .limit(1);
  return row ? { kind: 'build', buildId: row.id } : null;
};

/** The build a software-token call is about: the token's own (a path naming another is not found). */
export function callingBuild(request: FastifyRequest, pathBuild?: number): number {
  const principal = request.principal;
  if (principal?.kind !== 'build') throw invalidToken();
  if (pathBuild !== undefined && pathBuild !== principal.buildId) throw notFound('Build not found.');
  return principal.buildId;
}
