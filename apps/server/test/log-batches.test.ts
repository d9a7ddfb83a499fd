import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceLogs, instances } from '../src/db/schema/index.js';
import { logWriter } from '../src/domains/clusters/cluster-facing/log-batches.js';
import { createUser } from './helpers/factories.js';
import { type RunningCluster, seedRunningCluster } from './helpers/running-cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const LOGS = '/api/v2/cluster_facing/logs';

const linesOf = (tag: string, count: number) =>
  Array.from({ length: count }, (_, k) => ({
    timestamp_ms: 1_700_000_000_000 + k,
    source: 'dask',
    message: `${tag} ${k}`,
  }));

/**
 * Log batches that arrive together share one statement (cluster-facing/log-batches.ts): each is
 * still answered for itself, with what was stored of it, on the embedded database and on
 * PostgreSQL (DATABASE_URL).
 */
describe('log batches arriving together', () => {
  let ts: TestServer;
  let clusters: RunningCluster[];
  beforeAll(async () => {
    ts = await startTestServer();
    // No backend runs these clusters: the cluster loop must not launch what they lack meanwhile.
    await ts.server.stopLoops();
    const user = await createUser(ts);
    clusters = [];
    for (let k = 0; k < 4; k++) clusters.push(await seedRunningCluster(ts.server.deps.db, user.id));
  });
  afterAll(() => ts?.close());

  /** The messages stored for the cluster's instance, in the order they were stored. */
  const stored = async (cluster: RunningCluster) =>
    (
      await ts.server.deps.db
        .select({ message: instanceLogs.message })
        .from(instanceLogs)
        .where(eq(instanceLogs.clusterId, cluster.id))
        .orderBy(asc(instanceLogs.id))
    ).map((r) => r.message);

  it('stores every instance’s lines, in order, and answers each call with its own count', async () => {
    const { db } = ts.server.deps;
    await db
      .update(instances)
      .set({ lastHeartbeat: null })
      .where(
        inArray(
          instances.clusterId,
          clusters.map((c) => c.id),
        ),
      );
    const calls = clusters.flatMap((cluster, k) =>
      [0, 1, 2].map((round) => ({
        cluster,
        lines: linesOf(`c${k} r${round}`, 3 + k),
      })),
    );
    // A cluster naming an instance it does not have: its own unknown one, and another cluster's.
    const strangers = [
      { cluster: clusters[0]!, backendId: 'no-such-instance' },
      { cluster: clusters[0]!, backendId: clusters[1]!.backendId },
    ];
    const answers = await Promise.all([
      ...calls.map(({ cluster, lines }) =>
        ts.api.as(cluster.token).post(LOGS, { backend_id: cluster.backendId, lines }),
      ),
      ...strangers.map(({ cluster, backendId }) =>
        ts.api.as(cluster.token).post(LOGS, { backend_id: backendId, lines: linesOf('stranger', 2) }),
      ),
    ]);
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      ...calls.map(({ lines }) => [200, { stored: lines.length }]),
      ...strangers.map(() => [404, expect.objectContaining({ detail: 'Instance not found.' })]),
    ]);

    for (const [k, cluster] of clusters.entries()) {
      const sent = calls.filter((c) => c.cluster === cluster).flatMap((c) => c.lines.map((l) => l.message));
      const kept = await stored(cluster);
      // Each call's lines in their order (calls may be stored in any order among themselves).
      expect([...kept].sort()).toEqual([...sent].sort());
      for (const round of [0, 1, 2]) {
        const mine = kept.filter((m) => m.startsWith(`c${k} r${round} `));
        expect(mine).toEqual(linesOf(`c${k} r${round}`, 3 + k).map((l) => l.message));
      }
    }
    expect(await stored(clusters[0]!)).not.toContain('stranger 0');
    // Every cluster-facing call counts as a heartbeat.
    const touched = await db
      .select({ lastHeartbeat: instances.lastHeartbeat })
      .from(instances)
      .where(
        inArray(
          instances.clusterId,
          clusters.map((c) => c.id),
        ),
      );
    expect(touched.map((r) => r.lastHeartbeat)).toEqual(clusters.map(() => expect.any(Date)));
  });

  it('answers a batch the database refuses with its error, and stores the others that came with it', async () => {
    const { db } = ts.server.deps;
    // A rule the database enforces, so that one batch's data fails the statement it shares.
    await db.execute(
      sql`alter table instance_logs add constraint test_refused check (message <> 'refused by the database')`,
    );
    try {
      const writer = logWriter(db);
      const batchOf = (cluster: RunningCluster, messages: string[]) => ({
        clusterId: cluster.id,
        backendId: cluster.backendId,
        lines: messages.map((message, k) => ({
          timestampMs: 1_800_000_000_000 + k,
          source: 'system',
          message,
          taskId: null,
        })),
      });
      const before = await Promise.all(clusters.map(stored));
      // Called in one go: the first is written at once, the others wait for it and share the next statement.
      const results = await Promise.allSettled([
        writer.store(batchOf(clusters[0]!, ['first alone'])),
        writer.store(batchOf(clusters[1]!, ['kept a', 'kept b'])),
        writer.store(batchOf(clusters[2]!, ['fine', 'refused by the database'])),
        writer.store(batchOf(clusters[3]!, ['kept c'])),
        writer.store({ ...batchOf(clusters[3]!, ['nowhere']), backendId: 'no-such-instance' }),
      ]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([
        1,
        2,
        'failed',
        1,
        null,
      ]);
      const after = await Promise.all(clusters.map(stored));
      expect(after.map((lines, k) => lines.slice(before[k]!.length))).toEqual([
        ['first alone'],
        ['kept a', 'kept b'],
        [],
        ['kept c'],
      ]);
    } finally {
      await db.execute(sql`alter table instance_logs drop constraint test_refused`);
    }
  });
});
