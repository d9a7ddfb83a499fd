import { and, not, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ChangeCache } from '../../../db/cache.js';
import type { ChangeFeed } from '../../../db/changes.js';
import type { Db } from '../../../db/client.js';
import { perDatabase } from '../../../db/per-database.js';
import { clusters } from '../../../db/schema/index.js';
import { StatementBatcher } from '../../../db/statement-batcher.js';
import type { ClusterTokenResolver, Principal } from '../../../http/auth.js';
import { invalidToken } from '../../../http/errors.js';
import { sha256 } from '../../../lib/crypto.js';
import { sqlSettledCluster } from '../states.js';

/**
 * How long a cluster's token is answered from memory at most. A stop reaches every server at once
 * anyway (and nothing is answered from memory while the change feed is down); the limit only
 * bounds a missed notification. Longer than user credentials' 10 s: with thousands of instances,
 * each expiry is a lookup per instance.
 */
const TOKEN_TTL_MS = 60_000;

/**
 * Cluster bearer tokens: random, stored as SHA-256; a stopped cluster's token no longer works.
 * Every agent call carries one (a heartbeat every few seconds per instance), so a valid token is
 * kept in memory, keyed by its hash, and dropped the moment its cluster's state, desired state or
 * token changes on any server (migration 0031's trigger, see ChangeCache): a stop takes effect at
 * the next call, as when each call read the row. Unknown tokens are not kept.
 */
export function clusterTokenResolver(changes: ChangeFeed): ClusterTokenResolver {
  const cache = new ChangeCache<Principal>(changes, { ttlMs: TOKEN_TTL_MS, maxEntries: 50_000 });
  return async (db: Db, token: string): Promise<Principal | null> => {
    const tokenHash = sha256(token);
    const known = cache.get(tokenHash);
    if (known) return known;
    const mark = cache.mark();
    const clusterId = await clustersOfTokens(db).run(tokenHash);
    if (clusterId === undefined) return null;
    const principal: Principal = Object.freeze({ kind: 'cluster', clusterId, instanceId: null });
    cache.set(tokenHash, principal, [`clusters:${clusterId}`], mark);
    return principal;
  };
}

/**
 * The clusters (not settled) of token hashes, looked up together: when thousands of instances
 * call a server that just started, every token is looked up at once.
 */
const clustersOfTokens = perDatabase(
  (db) =>
    new StatementBatcher<string, number | undefined>(async (hashes) => {
      const rows = await db
        .select({ id: clusters.id, tokenHash: clusters.tokenHash })
        .from(clusters)
        .where(and(sql`${clusters.tokenHash} = any(${sql.param(hashes)}::text[])`, not(sqlSettledCluster)));
      const byHash = new Map(rows.map((r) => [r.tokenHash, r.id]));
      return hashes.map((hash) => byHash.get(hash));
    }),
);

/** The cluster of a cluster-facing call (its auth mode guarantees one). */
export function callingCluster(request: FastifyRequest): number {
  const principal = request.principal;
  if (principal?.kind !== 'cluster') throw invalidToken();
  return principal.clusterId;
}
