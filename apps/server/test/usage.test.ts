import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, instanceSpecs, instances, usageMinutes } from '../src/db/schema/index.js';
import { meterWindow } from '../src/modules/usage/meter.js';
import type { Api } from './helpers/api.js';
import { createClusterRow, createUser, type TestUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Metering and usage: instance-minutes written once per minute an instance ran (any part of it),
 * priced from its machine, rolled up hourly, and queried in every unit, period and group-by, in
 * the caller's scope. The figures below are computed by hand.
 */
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let api: Api;
let workspace: { id: number; slug: string };
const rates = { localCoreHourUsd: 0.04, localGibHourUsd: 0.005 };
const at = (hhmmss: string) => new Date(`2026-01-10T${hhmmss}Z`);

async function machine(
  creator: TestUser,
  name: string,
  spec: { instanceType: string; cores: number; memoryMib: number },
  launched: string,
  stopped: string | null,
  tags: Record<string, string> = {},
) {
  const { db } = ts.server.deps;
  const cluster = await createClusterRow(ts, workspace, creator, { name });
  await db.update(clusters).set({ tags }).where(eq(clusters.id, cluster.id));
  await db
    .insert(instanceSpecs)
    .values({ clusterId: cluster.id, role: 'worker', backendType: 'in_process', arch: 'x86_64', ...spec });
  await db
    .update(instances)
    .set({
      launchedAt: at(launched),
      instanceType: spec.instanceType,
      ...(stopped ? { state: 'stopped' as const, stateUpdated: at(stopped), releasedAt: at(stopped) } : {}),
    })
    .where(eq(instances.clusterId, cluster.id));
  return cluster;
}

const ctx = () => ({ db: ts.server.deps.db, rates });
const query = (q: Record<string, string>) =>
  api.get('/api/v2/usage/', { query: { start: '2026-01-10', end: '2026-01-10', ...q } });

beforeAll(async () => {
  ts = await startTestServer();
  alice = await createUser(ts);
  bob = await createUser(ts);
  api = ts.api.as(alice.key);
  const me = (await api.get('/api/v2/user/me')).body;
  workspace = { id: me.default_account.id, slug: me.default_account.slug };
  // Bob runs in Alice's workspace too (as her teammate would).
  // A: 10:00:30 -> 10:10:10, 2 cores, 4 GiB, local: minutes 10:00 ... 10:10 = 11.
  await machine(alice, 'etl', { instanceType: 'local', cores: 2, memoryMib: 4096 }, '10:00:30', '10:10:10');
  // B: from 10:05, still running; metered until 11:00: 55 minutes of an m6i.xlarge (4 cores, $0.192/h).
  await machine(bob, 'train', { instanceType: 'm6i.xlarge', cores: 4, memoryMib: 16384 }, '10:05:00', null, {
    team: 'ml',
  });
  await meterWindow(ctx(), at('10:00:00'), at('10:30:00'));
  await meterWindow(ctx(), at('10:20:00'), at('11:00:00'));
});
afterAll(async () => ts?.close());

describe('metering', () => {
  it('writes each instance-minute once, however often and overlapping the windows metered', async () => {
    const before = await ts.server.deps.db.$count(usageMinutes);
    expect(before).toBe(11 + 55);
    await meterWindow(ctx(), at('10:00:00'), at('11:00:00'));
    expect(await ts.server.deps.db.$count(usageMinutes)).toBe(before);
  });
});

describe('usage', () => {
  it('sums every unit as computed by hand', async () => {
    const minutes = await query({ unit: 'instance-minutes', groupby: 'cluster' });
    expect(minutes.status).toBe(200);
    expect(minutes.body.total).toBe(66);
    expect(minutes.body.groups.map((g: any) => [g.label.split(' ')[0], g.total])).toEqual([
      ['train', 55],
      ['etl', 11],
    ]);
    const credits = await query({ unit: 'credits', groupby: 'user' });
    // 1 credit = 1 core-hour, a minute's price rounded to the micro-credit: 2 cores 33333, 4 cores 66667.
    expect(credits.body.total).toBe((11 * 33_333 + 55 * 66_667) / 1e6);
    expect(credits.body.groups).toEqual([
      { key: expect.any(String), label: bob.username, total: (55 * 66_667) / 1e6 },
      { key: expect.any(String), label: alice.username, total: (11 * 33_333) / 1e6 },
    ]);
    // At the default credit value, $0.05.
    const cost = await query({ unit: 'cumulus-cost' });
    expect(cost.body.total).toBe((11 * 1667 + 55 * 3333) / 1e6);
    // Local: 2 cores × $0.04 + 4 GiB × $0.005 an hour; the m6i.xlarge at its list price.
    const cloud = await query({ unit: 'approx-cloud-cost', groupby: 'instance_type' });
    expect(Object.fromEntries(cloud.body.groups.map((g: any) => [g.key, g.total]))).toEqual({
      local: expect.closeTo((11 / 60) * (2 * 0.04 + 4 * 0.005), 5),
      'm6i.xlarge': expect.closeTo((55 / 60) * 0.192, 5),
    });
  });

  it('buckets by period and groups by tag, provider and type, with filters', async () => {
    const byHour = await query({ unit: 'instance-minutes', period: 'hour' });
    expect(byHour.body.buckets).toEqual([
      { start: '2026-01-10T10:00:00.000000+00:00', total: 66, values: { all: 66 } },
    ]);
    const byMonth = await query({ unit: 'instance-minutes', period: 'month' });
    expect(byMonth.body.buckets[0].start).toBe('2026-01-01T00:00:00.000000+00:00');
    const byTag = await query({ unit: 'instance-minutes', groupby: 'tag', groupby_tag: 'team' });
    expect(byTag.body.groups.map((g: any) => [g.label, g.total])).toEqual([
      ['ml', 55],
      ['untagged', 11],
    ]);
    const byProvider = await query({ unit: 'instance-minutes', groupby: 'cloud_provider' });
    expect(byProvider.body.groups.map((g: any) => g.key)).toEqual(['local']);
    const filtered = await query({
      unit: 'instance-minutes',
      groupby: 'user',
      group_filters: JSON.stringify({ instance_type: ['local'] }),
    });
    expect(filtered.body.total, JSON.stringify(filtered.body)).toBe(11);
    for (const groupby of ['account', 'billing_method', 'cluster_type', 'gpu_type', 'organization', 'zone'])
      expect((await query({ unit: 'instance-minutes', groupby })).body.total).toBe(66);
    const outside = await query({ unit: 'instance-minutes', start: '2026-01-11', end: '2026-01-12' });
    expect(outside.body).toMatchObject({ total: 0, groups: [], buckets: [] });
  });

  it('refuses a bad query, naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ unit: 'bananas' }, 'unit'],
      [{ unit: 'credits', groupby: 'planet' }, 'groupby'],
      [{ unit: 'credits', start: '2026-13-01' }, 'start'],
      [{ unit: 'credits', start: '2026-01-10', end: '2026-01-09' }, 'end'],
      [{ unit: 'credits', period: 'hour', start: '2026-01-01', end: '2026-03-01' }, 'end'],
      [{ unit: 'credits', groupby: 'tag' }, 'groupby_tag'],
      [{ unit: 'credits', group_filters: '{"planet": ["x"]}' }, 'group_filters'],
    ];
    for (const [q, field] of cases) {
      const res = await query(q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(Object.keys(res.body), JSON.stringify(q)).toContain(field);
    }
  });

  it("shows callers only their own workspaces' usage; staff see everything", async () => {
    const stranger = await createUser(ts);
    expect(
      (
        await ts.api.as(stranger.key).get('/api/v2/usage/', {
          query: { unit: 'instance-minutes', start: '2026-01-10', end: '2026-01-10' },
        })
      ).body.total,
    ).toBe(0);
    const staff = await createUser(ts, { staff: true });
    expect(
      (
        await ts.api.as(staff.key).get('/api/v2/usage/', {
          query: { unit: 'instance-minutes', start: '2026-01-10', end: '2026-01-10' },
        })
      ).body.total,
    ).toBe(66);
    expect(
      (
        await ts.api.get('/api/v2/usage/', {
          query: { unit: 'credits', start: '2026-01-10', end: '2026-01-10' },
        })
      ).status,
    ).toBe(401);
  });
});
