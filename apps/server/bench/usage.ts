import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import type { User } from '../src/db/schema/index.js';
import { rollUp } from '../src/modules/usage/meter.js';
import { usage } from '../src/modules/usage/queries.js';
import { usageQuery } from '../src/modules/usage/schemas.js';
import { throwawayPostgres } from './http/hot-paths.js';

const INSTANCES = 100;
const MINUTES_EACH = 10_000;
const RUNS = 50;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/**
 * `GET usage/` by day grouped by user over 1,000,000 metered instance-minutes (100 instances ×
 * 10,000 minutes, 50 users, 10 workspaces, about a week) in PostgreSQL: the query as the server
 * runs it (over the daily rollup), and the same sums over the hourly rollup and over the raw
 * minutes for comparison.
 */
export async function benchUsage(): Promise<void> {
  const target = await throwawayPostgres();
  const database = await openDatabase({ databaseUrl: target.databaseUrl });
  try {
    await database.migrate();
    const { db } = database;
    const start = new Date('2026-03-02T00:00:00Z');
    const seeded = performance.now();
    await db.execute(sql`
      insert into usage_minutes (minute, instance_id, cluster_id, cluster_name, account_id, organization_id, user_id,
        cluster_type, backend_type, instance_type, zone, gpu_type, tags, cores, memory_mib, gpus,
        micro_credits, micro_cloud_cost, micro_cumulus_cost)
      select ${start.toISOString()}::timestamptz + (m * interval '1 minute'), i, i / 2, 'cluster-' || (i / 2),
        1 + (i / 2) % 10, 1, 1 + (i / 2) % 50, 'standard', 'vm_aws', 'm6i.xlarge', 'us-east-1a', '', '{}'::jsonb, 4, 16384, 0,
        66667, 3200, 3333
      from generate_series(1, ${INSTANCES}) as i, generate_series(0, ${MINUTES_EACH - 1}) as m`);
    const end = new Date(start.getTime() + MINUTES_EACH * 60_000);
    await rollUp(db, start, end);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;
    const staff = { id: 0, isStaff: true } as User;
    const query = usageQuery.parse({
      unit: 'credits',
      start: '2026-03-02',
      end: end.toISOString().slice(0, 10),
      period: 'day',
      groupby: 'user',
    });
    const times: number[] = [];
    let groups = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      groups = (await usage(db, staff, query)).groups.length;
      times.push(performance.now() - t);
    }
    const hourly: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await db.execute(
        sql`select date_trunc('day', hour), user_id, sum(micro_credits) from usage_hourly group by 1, 2`,
      );
      hourly.push(performance.now() - t);
    }
    const raw: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await db.execute(
        sql`select date_trunc('day', minute), user_id, sum(micro_credits) from usage_minutes group by 1, 2`,
      );
      raw.push(performance.now() - t);
    }
    console.log(
      `\nUsage by day grouped by user, 1,000,000 metered minutes in PostgreSQL (${RUNS} runs; seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    console.log(
      `  GET usage/ (daily rollup)    p50 ${percentile(times, 0.5).toFixed(1)} ms   p99 ${percentile(times, 0.99).toFixed(1)} ms   (${groups} users)`,
    );
    console.log(`  same sums, hourly rollup     p50 ${percentile(hourly, 0.5).toFixed(1)} ms`);
    console.log(
      `  same sums over raw minutes   p50 ${percentile(raw, 0.5).toFixed(1)} ms   ratio ${(percentile(raw, 0.5) / percentile(times, 0.5)).toFixed(1)}x slower`,
    );
  } finally {
    await database.close();
    await target.drop?.();
  }
}
