import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { perDatabase } from '../../../db/per-database.js';
import { clusterProcesses, clusters, instances } from '../../../db/schema/index.js';

/**
 * The statements instances run every few seconds (their instance read, touch), prepared
 * once per database: building a query with drizzle costs more CPU than PostgreSQL spends on it.
 *
 * A heartbeat's or touch's `last_heartbeat` is committed without waiting for the WAL to reach
 * disk (`synchronous_commit` off for that statement's own transaction): waiting for an fsync on
 * every heartbeat is what held a pooled connection longest. A database crash (on embedded PGlite:
 * the server's process killed) loses at most the last fraction of a second of them, which the next
 * heartbeat writes again. Every other write still waits for the disk.
 */
export const noFsyncWait: SQL = sql`set_config('synchronous_commit', 'off', true) is not null`;

function prepare(db: Db) {
  return {
    callingInstance: db
      .select({ instance: instances, process: clusterProcesses, cluster: clusters })
      .from(instances)
      .innerJoin(clusterProcesses, eq(clusterProcesses.id, instances.processId))
      .innerJoin(clusters, eq(clusters.id, instances.clusterId))
      .where(
        and(
          eq(instances.backendId, sql.placeholder('backendId')),
          eq(instances.clusterId, sql.placeholder('clusterId')),
        ),
      )
      .limit(1)
      .prepare('calling_instance'),
    touchById: db
      .update(instances)
      .set({ lastHeartbeat: sql`now()` })
      .where(and(eq(instances.id, sql.placeholder('instanceId')), noFsyncWait))
      .prepare('instance_touch_by_id'),
  };
}

/** The prepared hot statements of `db`. */
export const hotStatements = perDatabase(prepare);
