import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { perDatabase } from '../../../db/per-database.js';
import { instanceLogs, instances } from '../../../db/schema/index.js';
import { StatementBatcher } from '../../../db/statement-batcher.js';

/** A log batch an agent shipped: its instance (by backend id, in the calling cluster) and lines. */
export interface LogBatch {
  clusterId: number;
  backendId: string;
  lines: Array<{ timestampMs: number; source: string; message: string; taskId: number | null }>;
}

/** About how many bytes of lines one statement carries at most (a round takes at least one batch). */
const MAX_STATEMENT_BYTES = 8 * 1024 * 1024;
const bytesOf = (batch: LogBatch) => batch.lines.reduce((sum, line) => sum + line.message.length + 64, 64);

/**
 * Log batches are stored in shared statements (StatementBatcher): the batches that arrive while one
 * is being written go together in the next, one commit for all. Each commit still waits for the
 * disk (lines an agent was told are stored survive anything; on embedded PGlite the server's
 * process is the database, so a commit not yet written would die with it), but thousands of
 * instances' batches share a few commits a second instead of holding a pooled connection each
 * (bench/control-plane.ts).
 */
export class LogWriter {
  private readonly writer: StatementBatcher<LogBatch, number | null>;

  constructor(db: Db) {
    this.writer = new StatementBatcher((batches) => storeBatches(db, batches), {
      weight: bytesOf,
      maxWeight: MAX_STATEMENT_BYTES,
    });
  }

  /** Answers how many lines were stored, or null when the calling cluster has no such instance. */
  store(batch: LogBatch): Promise<number | null> {
    return this.writer.run(batch);
  }
}

/**
 * One statement: the batches' instances found, and the lines of those found inserted in the order
 * they came. It locks no instance row (the foreign keys' checks take only key-share locks), so it
 * never waits for or deadlocks with the heartbeats' updates.
 */
async function storeBatches(db: Db, batches: LogBatch[]): Promise<Array<number | null>> {
  const i = instances;
  const l = instanceLogs;
  const lineBatch: number[] = [];
  const timestampMs: number[] = [];
  const source: string[] = [];
  const message: string[] = [];
  const taskId: Array<number | null> = [];
  batches.forEach((batch, k) => {
    for (const line of batch.lines) {
      lineBatch.push(k + 1);
      timestampMs.push(line.timestampMs);
      source.push(line.source);
      message.push(line.message);
      taskId.push(line.taskId);
    }
  });
  const { rows } = (await db.execute(sql`
    with found as (
      select called.batch::int as batch, ${i.id} as instance_id, ${i.clusterId} as cluster_id
      from unnest(${sql.param(batches.map((b) => b.clusterId))}::int[], ${sql.param(batches.map((b) => b.backendId))}::text[])
        with ordinality as called(cluster_id, backend_id, batch)
      join ${i} on ${i.clusterId} = called.cluster_id and ${i.backendId} = called.backend_id
    ), stored as (
      insert into ${l} (${sql.identifier(l.clusterId.name)}, ${sql.identifier(l.instanceId.name)},
        ${sql.identifier(l.timestampMs.name)}, ${sql.identifier(l.source.name)}, ${sql.identifier(l.message.name)},
        ${sql.identifier(l.taskId.name)})
      select found.cluster_id, found.instance_id, line.timestamp_ms, line.source::log_source, line.message, line.task_id
      from unnest(${sql.param(lineBatch)}::int[], ${sql.param(timestampMs)}::bigint[], ${sql.param(source)}::text[],
        ${sql.param(message)}::text[], ${sql.param(taskId)}::bigint[])
        with ordinality as line(batch, timestamp_ms, source, message, task_id, n)
      join found on found.batch = line.batch
      order by line.n
    )
    select batch from found
  `)) as unknown as { rows: Array<{ batch: number }> };
  const found = new Set(rows.map((r) => Number(r.batch)));
  return batches.map((batch, k) => (found.has(k + 1) ? batch.lines.length : null));
}

/** The log writer of `db` (one per database, so that all its batches share statements). */
export const logWriter = perDatabase((db) => new LogWriter(db));
