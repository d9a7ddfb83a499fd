import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Backend } from '../compute/backend.js';
import type { ClusterTimings } from '../config.js';
import type { Db } from '../db/client.js';
import { clusters } from '../db/schema/index.js';
import type { SecretBox } from '../lib/crypto.js';
import { randomHex } from '../lib/crypto.js';
import { reconcileCluster } from './cluster-reconcile.js';

export interface ClusterLoopDeps {
  db: Db;
  backend: Backend;
  secrets: SecretBox;
  timings: ClusterTimings;
  serverUrl: string;
  log: FastifyBaseLogger;
}

/**
 * How long a replica may work on a cluster before another may take it over: long enough for a
 * pass that stops instances (TERM, the grace period, KILL), short so that a crashed replica's
 * clusters are not left waiting long.
 */
const leaseSeconds = (timings: ClusterTimings) =>
  Math.max(30, Math.ceil((2 * timings.stopGraceMs) / 1000) + 10);
const BATCH = 8;

/**
 * The cluster control loop. Each tick claims clusters that are due (`reconcile_at` passed, no live
 * lease) with `FOR UPDATE SKIP LOCKED`, so replicas on one PostgreSQL never work on the same
 * cluster at once; acts on each outside any transaction (launching and stopping take seconds);
 * then releases the lease and says when to look again. A replica that dies mid-way leaves a lease
 * that expires, and the next one redoes the (idempotent) work.
 */
export function createClusterLoop(deps: ClusterLoopDeps) {
  const owner = `${process.pid}-${randomHex(6)}`;
  const LEASE_SECONDS = leaseSeconds(deps.timings);

  async function claim(): Promise<number[]> {
    const result = await deps.db.execute<{ id: number }>(sql`
      update ${clusters} set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
      where id in (
        select id from ${clusters}
        where reconcile_at <= now() and (lease_until is null or lease_until < now())
        order by reconcile_at limit ${BATCH}
        for update skip locked
      )
      returning id`);
    return (result as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id));
  }

  async function work(id: number): Promise<void> {
    let next: Date | null = new Date(Date.now() + deps.timings.reconcileIntervalMs);
    try {
      next = await reconcileCluster(deps, id);
    } catch (err) {
      deps.log.error({ err, clusterId: id }, 'cluster reconcile failed');
    } finally {
      // A request that arrived while we worked (reconcile_at moved past our claim) is kept.
      await deps.db
        .update(clusters)
        .set({
          leaseOwner: null,
          leaseUntil: null,
          reconcileAt: sql`case when ${clusters.reconcileAt} > ${clusters.leaseUntil} - make_interval(secs => ${LEASE_SECONDS}) then ${clusters.reconcileAt} else ${next?.toISOString() ?? null}::timestamptz end`,
        })
        .where(and(eq(clusters.id, id), eq(clusters.leaseOwner, owner)));
    }
  }

  return {
    owner,
    /** One pass: true when it claimed a full batch (there may be more due). */
    async tick(): Promise<boolean> {
      const ids = await claim();
      await Promise.all(ids.map(work));
      return ids.length === BATCH;
    },
  };
}
