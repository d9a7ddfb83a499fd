import { eq, sql } from 'drizzle-orm';
import {
  organizationMemberships,
  organizations,
  users,
  workspaceMemberships,
  workspaces,
} from '../src/db/schema/index.js';
import { rollUp } from '../src/domains/billing/usage/meter.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { throwawayPostgres } from './http/hot-paths.js';
import { registerBenchUser, startBenchServer } from './server.js';

const INSTANCES = 100;
const MINUTES_EACH = 10_000;
const WORKSPACES = 10;
const USERS = 50;
/** Requests per caller: enough that p99 is not simply the slowest one. */
const SAMPLES = 400;
const WARM_UP = 20;

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(9);

/**
 * `GET /api/v2/usage/` by day grouped by user over 1,000,000 metered instance-minutes (100
 * instances × 10,000 minutes, about a week, 50 users in 10 workspaces of one organization) in
 * PostgreSQL, through the real server over HTTP (validation, authentication, the caller's scope,
 * serialisation): as a member of 3 of the workspaces (the `account_id in (...)` scope filter) and
 * as staff (everything), one request at a time. For comparison, the same sums straight from the
 * hourly rollup and from the raw minutes.
 */
export async function benchUsage(): Promise<void> {
  const target = await throwawayPostgres();
  if (!target.databaseUrl) throw new Error('no throwaway PostgreSQL database');
  const bench = await startBenchServer({ DATABASE_URL: target.databaseUrl });
  try {
    const { db } = bench.server.deps;
    const member = await registerBenchUser(bench.server, 'usagemember');
    const staff = await registerBenchUser(bench.server, 'usagestaff');
    await db.update(users).set({ isStaff: true }).where(eq(users.id, staff.id));
    const [org] = await db.insert(organizations).values({ name: 'Bench Usage' }).returning();
    const spaces = await db
      .insert(workspaces)
      .values(
        Array.from({ length: WORKSPACES }, (_, i) => ({
          name: `usage-ws-${i}`,
          slug: `usage-ws-${i}`,
          organizationId: org!.id,
        })),
      )
      .returning();
    const people = await db
      .insert(users)
      .values(
        Array.from({ length: USERS }, (_, i) => ({ username: `usage${i}`, email: `usage${i}@example.com` })),
      )
      .returning();
    await db.insert(organizationMemberships).values({ organizationId: org!.id, userId: member.id });
    await db
      .insert(workspaceMemberships)
      .values(spaces.slice(0, 3).map((w) => ({ workspaceId: w.id, userId: member.id })));

    const start = new Date('2026-03-02T00:00:00Z');
    const end = new Date(start.getTime() + MINUTES_EACH * 60_000);
    const list = (ids: number[]) => sql.raw(`array[${ids.join(',')}]`);
    const seeded = performance.now();
    await db.execute(sql`
      insert into usage_minutes (minute, instance_id, cluster_id, cluster_name, account_id, organization_id, user_id,
        cluster_type, backend_type, instance_type, zone, gpu_type, tags, cores, memory_mib, gpus,
        micro_credits, micro_cloud_cost, micro_cumulus_cost)
      select ${start.toISOString()}::timestamptz + (m * interval '1 minute'), i, i / 2, 'cluster-' || (i / 2),
        (${list(spaces.map((w) => w.id))})[1 + (i / 2) % ${WORKSPACES}], ${org!.id},
        (${list(people.map((p) => p.id))})[1 + (i / 2) % ${USERS}],
        'standard', 'vm_aws', 'm6i.xlarge', 'us-east-1a', '', '{}'::jsonb, 4, 16384, 0, 66667, 3200, 3333
      from generate_series(1, ${INSTANCES}) as i, generate_series(0, ${MINUTES_EACH - 1}) as m`);
    await rollUp(db, start, end);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const query = new URLSearchParams({
      unit: 'credits',
      start: start.toISOString().slice(0, 10),
      end: end.toISOString().slice(0, 10),
      period: 'day',
      groupby: 'user',
    });
    const url = `${bench.base}/api/v2/usage/?${query}`;
    const timed = async (who: typeof member) => {
      const { token } = await createToken(db, who, { label: 'bench' });
      const headers = { authorization: `ApiToken ${token}` };
      const times: number[] = [];
      let groups = 0;
      for (let i = 0; i < WARM_UP + SAMPLES; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers });
        const body = (await res.json()) as { groups: unknown[] };
        if (res.status !== 200) throw new Error(`usage answered ${res.status}: ${JSON.stringify(body)}`);
        if (i >= WARM_UP) times.push(performance.now() - t);
        groups = body.groups.length;
      }
      return { times, groups };
    };
    const asMember = await timed(member);
    const asStaff = await timed(staff);

    const direct = async (runs: number, statement: ReturnType<typeof sql>) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await db.execute(statement);
        times.push(performance.now() - t);
      }
      return percentile(times, 0.5);
    };
    const hourly = await direct(
      50,
      sql`select date_trunc('day', hour, 'UTC'), user_id, sum(micro_credits) from usage_hourly group by 1, 2`,
    );
    const raw = await direct(
      5,
      sql`select date_trunc('day', minute, 'UTC'), user_id, sum(micro_credits) from usage_minutes group by 1, 2`,
    );

    console.log(
      `\nGET /api/v2/usage/ by day grouped by user, 1,000,000 metered minutes in PostgreSQL, over HTTP, ${SAMPLES} requests each (seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    for (const [who, r] of [
      ['member of 3 of 10 workspaces', asMember],
      ['staff (everything)', asStaff],
    ] as const)
      console.log(
        `  ${who.padEnd(30)} p50 ${ms(percentile(r.times, 0.5))}   p99 ${ms(percentile(r.times, 0.99))}   max ${ms(Math.max(...r.times))}   (${r.groups} users)`,
      );
    console.log(`  same sums from the hourly rollup in SQL      p50 ${ms(hourly)}`);
    console.log(`  same sums from the raw minutes in SQL        p50 ${ms(raw)}`);
  } finally {
    await bench.close();
    await target.drop?.();
  }
}
