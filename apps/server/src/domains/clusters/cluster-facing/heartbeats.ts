import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { perDatabase } from '../../../db/per-database.js';
import { clusterProcesses, instances } from '../../../db/schema/index.js';
import { StatementBatcher } from '../../../db/statement-batcher.js';
import { noFsyncWait } from './hot-statements.js';

/** What a heartbeat reads back: the instance's states and its process's desired state. */
export interface HeartbeatRow {
  backendId: string;
  state: (typeof instances.$inferSelect)['state'];
  desiredState: (typeof instances.$inferSelect)['desiredState'];
  processDesired: (typeof clusterProcesses.$inferSelect)['desiredState'];
}

interface Called {
  clusterId: number;
  backendId: string;
}

/**
 * Heartbeats are written in batches (StatementBatcher): the ones that arrive while a batch is being
 * written go together in the next statement (one `UPDATE … FROM unnest(…) RETURNING`). Under load
 * the number of statements (and pooled connections held) per second stays about one per round
 * trip instead of one per instance, which is what queued when thousands of instances heartbeat
 * (bench/control-plane.ts).
 */
export class HeartbeatWriter {
  private readonly writer: StatementBatcher<Called, HeartbeatRow | undefined>;

  constructor(db: Db) {
    this.writer = new StatementBatcher(async (batch) => {
      const rows = await touchAndRead(db, batch);
      const byKey = new Map(rows.map((r) => [`${r.clusterId}:${r.backendId}`, r]));
      return batch.map((c) => byKey.get(`${c.clusterId}:${c.backendId}`));
    });
  }

  /** Marks the instance heard from; answers its states, or undefined when the cluster has no such instance. */
  beat(clusterId: number, backendId: string): Promise<HeartbeatRow | undefined> {
    return this.writer.run({ clusterId, backendId });
  }
}

async function touchAndRead(db: Db, batch: Called[]): Promise<Array<HeartbeatRow & { clusterId: number }>> {
  const i = instances;
  const p = clusterProcesses;
  const { rows } = (await db.execute(sql`
    update ${i} set ${sql.identifier(i.lastHeartbeat.name)} = now()
    from ${p}, unnest(${sql.param(batch.map((w) => w.clusterId))}::int[], ${sql.param(batch.map((w) => w.backendId))}::text[])
      as called(cluster_id, backend_id)
    where ${i.clusterId} = called.cluster_id and ${i.backendId} = called.backend_id
      and ${p.id} = ${i.processId} and ${noFsyncWait}
    returning ${i.clusterId} as "clusterId", ${i.backendId} as "backendId", ${i.state} as "state",
      ${i.desiredState} as "desiredState", ${p.desiredState} as "processDesired"
  `)) as unknown as { rows: Array<HeartbeatRow & { clusterId: number }> };
  return rows;
}

/** The heartbeat writer of `db` (one per database, so that all its heartbeats batch together). */
export const heartbeatWriter = perDatabase((db) => new HeartbeatWriter(db));
