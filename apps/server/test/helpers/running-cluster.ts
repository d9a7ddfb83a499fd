import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';

export interface RunningCluster {
  id: number;
  token: string;
  backendId: string;
  /** The instance's heartbeat URL. */
  heartbeat: string;
}

/**
 * A running cluster of `userId` with one worker instance, written straight to the database with a
 * known token (as bench/control-plane.ts seeds them): what its agent's calls are checked against.
 * No backend runs it.
 */
export async function seedRunningCluster(db: Db, userId: number): Promise<RunningCluster> {
  const suffix = randomBytes(6).toString('hex');
  const token = `test-cluster-token-${userId}-${suffix}`;
  const backendId = `seeded-${suffix}`;
  const { rows } = (await db.execute(sql`
    with c as (
      insert into clusters (account_id, creator_id, name, backend_type, desired_state, state, infra_state,
        desired_workers, idle_timeout_seconds, token_hash, token_box, tls_cert, tls_key_box, created, updated, state_updated)
      select default_account_id, id, ${`seeded-${suffix}`}, 'in_process', 'ready', 'ready', 'created', 1, 1200,
        encode(sha256(convert_to(${token}, 'UTF8')), 'hex'), 'x', 'x', 'x', now(), now(), now()
      from users where id = ${userId}
      returning id
    ), p as (
      insert into cluster_processes (cluster_id, role, name, state) select id, 'worker', 'w', 'started' from c
      returning id, cluster_id
    )
    insert into instances (cluster_id, process_id, role, name, backend_type, backend_id, state, desired_state)
    select cluster_id, id, 'worker', 'w', 'in_process', ${backendId}, 'ready', 'ready' from p
    returning cluster_id as id
  `)) as unknown as { rows: Array<{ id: number }> };
  return {
    id: rows[0]!.id,
    token,
    backendId,
    heartbeat: `/api/v2/cluster_facing/instance/${backendId}/state`,
  };
}

/**
 * A seeded running cluster (above) whose scheduler instance is `starting` (its agent just spawned,
 * nothing reported), its Dask process in `processState`, with a TLS key sealed by `secrets`: what
 * a scheduler's first bootstrap, or a worker's wait for its scheduler, is checked against.
 */
export async function seedStartingScheduler(
  db: Db,
  secrets: { encrypt(value: string): string },
  userId: number,
  processState: 'pending' | 'starting',
): Promise<RunningCluster & { scheduler: string }> {
  const cluster = await seedRunningCluster(db, userId);
  const scheduler = `${cluster.backendId}-scheduler`;
  await db.execute(sql`update clusters set tls_key_box = ${secrets.encrypt('key')} where id = ${cluster.id}`);
  await db.execute(sql`
    with p as (
      insert into cluster_processes (cluster_id, role, name, state)
      values (${cluster.id}, 'scheduler', 's', ${processState}) returning id
    )
    insert into instances (cluster_id, process_id, role, name, backend_type, backend_id, state, desired_state)
    select ${cluster.id}, id, 'scheduler', 's', 'in_process', ${scheduler}, 'starting', 'ready' from p
  `);
  return { ...cluster, scheduler };
}
