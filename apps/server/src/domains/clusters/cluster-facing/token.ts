import { and, eq, not } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.js';
import { clusters } from '../../../db/schema/index.js';
import type { ClusterTokenResolver, Principal } from '../../../http/auth.js';
import { invalidToken } from '../../../http/errors.js';
import { sha256 } from '../../../lib/crypto.js';
import { sqlSettledCluster } from '../states.js';

/** Cluster bearer tokens: random, stored as SHA-256; a stopped cluster's token no longer works. */
export const resolveClusterToken: ClusterTokenResolver = async (
  db: Db,
  token: string,
): Promise<Principal | null> => {
  const [row] = await db
    .select({ id: clusters.id })
    .from(clusters)
    .where(and(eq(clusters.tokenHash, sha256(token)), not(sqlSettledCluster)))
    .limit(1);
  return row ? { kind: 'cluster', clusterId: row.id, instanceId: null } : null;
};

/** The cluster of a cluster-facing call (its auth mode guarantees one). */
export function callingCluster(request: FastifyRequest): number {
  const principal = request.principal;
  if (principal?.kind !== 'cluster') throw invalidToken();
  return principal.clusterId;
}
