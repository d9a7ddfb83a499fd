import pg from 'pg';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { registerBenchUser, startBenchServer } from './server.js';

const CLUSTERS = 100_000;
const LOG_LINES = 1_000_000;
/** Half of the lines belong to one big cluster (5 instances), the rest to 100 others. */
const BIG_SHARE = 0.5;
const ADMIN_URL = process.env.CUMULUS_BENCH_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Seeds clusters, instances and log lines with generate_series: one statement each. */
async function seed(
  client: pg.Client,
  workspaceId: number,
  userId: number,
): Promise<{ big: number; instance: number; lastMs: number }> {
  await client.query(
    `insert into clusters (account_id, creator_id, name, backend_type, desired_state, state, infra_state,
       desired_workers, idle_timeout_seconds, token_hash, token_box, tls_cert, tls_key_box, tags, reconcile_at, created, updated, state_updated)
     select $1, $2, 'bench-' || i, 'in_process',
       (case when i % 10 = 0 then 'ready' else 'stopped' end)::cluster_state,
       (case when i % 10 = 0 then 'ready' else 'stopped' end)::cluster_state, 'created',
       i % 8, 1200, md5('t' || i), 'x', 'x', 'x', jsonb_build_object('team', 'team-' || (i % 20)), null,
       now() - make_interval(secs => $3 - i), now(), now()
     from generate_series(1, $3) i`,
    [workspaceId, userId, CLUSTERS],
  );
  const { rows: ids } = await client.query<{ id: number }>(
    `select id from clusters where account_id = $1 order by id desc limit 101`,
    [workspaceId],
  );
  const big = ids[0]!.id;
  // One worker process and instance for each of the 101 clusters with logs (5 for the big one).
  await client.query(
    `insert into cluster_processes (cluster_id, role, name, state)
     select c, 'worker', 'w-' || c || '-' || k, 'stopped'
     from unnest($1::int[]) c, generate_series(1, case when c = $2 then 5 else 1 end) k`,
    [ids.map((r) => r.id), big],
  );
  await client.query(
    `insert into instances (cluster_id, process_id, role, name, backend_type, backend_id, state)
     select cluster_id, id, 'worker', name, 'in_process', 'bench-' || id, 'stopped' from cluster_processes`,
  );
  const { rows: inst } = await client.query<{ id: number; cluster_id: number }>(
    `select id, cluster_id from instances order by id`,
  );
  const bigInstances = inst.filter((i) => i.cluster_id === big).map((i) => i.id);
  const others = inst.filter((i) => i.cluster_id !== big).map((i) => i.id);
  const bigLines = Math.round(LOG_LINES * BIG_SHARE);
  const start = Date.now() - 86_400_000;
  await client.query(
    `insert into instance_logs (cluster_id, instance_id, timestamp_ms, source, message)
     select $1, ($2::int[])[1 + i % 5], $3::bigint + i * 50,
       (case when i % 7 = 0 then 'system' else 'dask' end)::log_source,
       case when i % 10000 = 0 then 'distributed.worker - WARNING - rare event ' || i
            else 'distributed.worker - INFO - task finished in ' || (i % 997) || ' ms, key ' || md5(i::text) end
     from generate_series(1, $4) i`,
    [big, bigInstances, start, bigLines],
  );
  await client.query(
    `insert into instance_logs (cluster_id, instance_id, timestamp_ms, source, message)
     select i2.cluster_id, i2.id, $2::bigint + g * 50, 'dask', 'line ' || g
     from generate_series(1, $3) g join instances i2 on i2.id = ($1::int[])[1 + g % array_length($1::int[], 1)]`,
    [others, start, LOG_LINES - bigLines],
  );
  // As autovacuum would have by then: visibility maps let counts use index-only scans.
  await client.query('vacuum analyze');
  return { big, instance: bigInstances[0]!, lastMs: start + bigLines * 50 };
}

/** One request after another for `seconds`: the latency a user waits for, in milliseconds. */
async function sequentialLatency(url: string, headers: Record<string, string>, seconds: number) {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end || times.length < 5) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), n: times.length };
}

/**
 * Latency of the dashboard's paginate and the log viewer's better-logs with 100k clusters and
 * 1M log lines, on PostgreSQL (a throwaway database, dropped afterwards).
 */
export async function benchClusterData(seconds: number): Promise<void> {
  const name = `cumulus_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (err) {
    console.log(`\nCluster data benchmark skipped: no PostgreSQL at ${ADMIN_URL} (${String(err)})`);
    return;
  }
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const bench = await startBenchServer({ DATABASE_URL: url.toString() });
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    const { server } = bench;
    const user = await registerBenchUser(server, 'databench');
    const { rows } = await client.query<{ id: number; slug: string }>(
      `select a.id, a.slug from accounts a join account_memberships m on m.account_id = a.id where m.user_id = $1`,
      [user.id],
    );
    const account = rows[0]!;
    const seedStart = performance.now();
    const { big, instance, lastMs } = await seed(client, account.id, user.id);
    const seeded = ((performance.now() - seedStart) / 1000).toFixed(1);
    const { token } = await createToken(server.deps.db, user, { label: 'bench' });
    const headers = { authorization: `ApiToken ${token}` };
    const logs = `/api/v2/clusters/account/${account.slug}/id/${big}/better-logs`;
    const calls: Record<string, string> = {
      'paginate first page (with count)': `/api/v2/clusters/paginate?account=${account.slug}&limit=50`,
      'paginate page 1000 (offset 50k)': `/api/v2/clusters/paginate?account=${account.slug}&limit=50&offset=50000`,
      'paginate state=ready, tag': `/api/v2/clusters/paginate?account=${account.slug}&state=ready&tags=team:team-0&limit=50`,
      'paginate name contains': `/api/v2/clusters/paginate?account=${account.slug}&name=bench-9999&limit=50`,
      'paginate ordered by name': `/api/v2/clusters/paginate?account=${account.slug}&order_by=name&order_by_direction=asc&limit=50`,
      'better-logs first 5000 lines': `${logs}`,
      'better-logs since_ms (newest 1000)': `${logs}?since_ms=${lastMs - 1000 * 50}`,
      'better-logs one instance, dask only': `${logs}?instance_ids=${instance}&dask=True&limit=1000`,
      'better-logs filter_pattern (rare)': `${logs}?filter_pattern=rare%20event&limit=1000`,
    };
    console.log(
      `\nCluster data on PostgreSQL: ${CLUSTERS.toLocaleString()} clusters, ${LOG_LINES.toLocaleString()} log lines (seeded in ${seeded} s); requests one after another for ${seconds} s each`,
    );
    for (const [label, path] of Object.entries(calls)) {
      const { p50, p99, n } = await sequentialLatency(`${bench.base}${path}`, headers, seconds);
      console.log(
        `  ${label.padEnd(38)} p50 ${p50.toFixed(0).padStart(5)} ms   p99 ${p99.toFixed(0).padStart(5)} ms   (${n} requests)`,
      );
    }
  } finally {
    await client.end().catch(() => {});
    await bench.close();
    // CUMULUS_BENCH_KEEP_DB=1 keeps the seeded database to look at its plans (psql, EXPLAIN).
    if (process.env.CUMULUS_BENCH_KEEP_DB) console.log(`  kept database ${name}`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
