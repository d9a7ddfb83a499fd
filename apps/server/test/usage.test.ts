import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clusters,
  instanceSpecs,
  instances,
  type Organization,
  organizationBilling,
  usageMinutes,
  type Workspace,
} from '../src/db/schema/index.js';
import { meterWindow } from '../src/domains/billing/usage/meter.js';
import type { Api } from './helpers/api.js';
import { openTestDatabase } from './helpers/database.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Metering and usage: instance-minutes written once per minute an instance ran (any part of it),
 * priced from its machine, rolled up hourly and daily, and queried in every unit, period and
 * group-by, in the caller's scope. The database session runs in Asia/Kolkata (UTC+05:30), so a
 * bucket cut in the session's zone instead of UTC would move hours by half an hour and days by a
 * day. Every figure below is computed by hand.
 *
 * A minute's price is its share of the hourly price: minutes a..b-1 of an hour cost
 * floor(H·b/60) − floor(H·a/60) millionths, so a whole hour costs H exactly.
 *
 * | cluster | who, where                  | machine                  | ran (UTC)                  | per hour (credits, cloud $, Cumulus $) |
 * | etl     | alice, ws1 (acme)           | local, 2 cores, 4 GiB    | Jan 31 23:50 → Feb 1 00:10 | 2, 0.10 (2×0.04 + 4×0.005), 0.10       |
 * | train   | bob, ws1 (acme), team=ml    | m6i.xlarge, aws us-east-1a | Feb 1 23:30 → Feb 2 00:30 | 4, 0.192, 0.20                         |
 * | gpu     | carol, ws2 (acme), notebook | g4dn.xlarge + T4, us-east-1b | Feb 2 10:00 → 10:15     | 14 (4 + 10 a GPU), 0.526, 0.70         |
 * | solo    | alice, her personal one     | local, 1 core, 2 GiB     | Jan 31 12:00 → 12:05       | 1, 0.05, 0.05                          |
 *
 * Jan 31 2026 is a Saturday, Feb 1 a Sunday: the week of Monday Jan 26 ends, and February starts,
 * inside these runs.
 */
let ts: TestServer;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let acme: Organization;
let ws1: Workspace;
let ws2: Workspace;
let personal: { id: number; name: string; organization: { id: number } };
const ids: Record<'etl' | 'train' | 'gpu' | 'solo', number> = { etl: 0, train: 0, gpu: 0, solo: 0 };
const rates = { localCoreHourUsd: 0.04, localGibHourUsd: 0.005 };
const at = (iso: string) => new Date(`2026-${iso}Z`);

async function machine(
  workspace: { id: number },
  creator: TestUser,
  name: keyof typeof ids,
  spec: { instanceType: string; cores: number; memoryMib: number; gpus?: number },
  ran: [string, string],
  extra: { tags?: Record<string, string>; options?: Record<string, unknown>; backendType?: string } = {},
) {
  const { db } = ts.server.deps;
  const cluster = await createClusterRow(ts, workspace, creator, { name, state: 'stopped' });
  ids[name] = cluster.id;
  await db
    .update(clusters)
    .set({
      tags: extra.tags ?? {},
      options: extra.options ?? {},
      backendType: extra.backendType ?? 'in_process',
    })
    .where(eq(clusters.id, cluster.id));
  await db.insert(instanceSpecs).values({
    clusterId: cluster.id,
    role: 'worker',
    backendType: extra.backendType ?? 'in_process',
    arch: 'x86_64',
    gpus: 0,
    ...spec,
  });
  await db
    .update(instances)
    .set({
      launchedAt: at(ran[0]),
      instanceType: spec.instanceType,
      state: 'stopped',
      stateUpdated: at(ran[1]),
      releasedAt: at(ran[1]),
    })
    .where(eq(instances.clusterId, cluster.id));
}

const ctx = () => ({ db: ts.server.deps.db, rates });
const RANGE = { start: '2026-01-31', end: '2026-02-02' };
let staffApi: Api;
const usage = (api: Api, q: Record<string, string>) =>
  api.get('/api/v2/usage/', { query: { ...RANGE, ...q } });
/** group key → total, and key → label, of a staff query. */
async function grouped(q: Record<string, string>) {
  const res = await usage(staffApi, q);
  expect(res.status, res.text).toBe(200);
  return {
    body: res.body,
    totals: Object.fromEntries(res.body.groups.map((g: { key: string; total: number }) => [g.key, g.total])),
    labels: Object.fromEntries(res.body.groups.map((g: { key: string; label: string }) => [g.key, g.label])),
  };
}

beforeAll(async () => {
  database = await openTestDatabase({ timeZone: 'Asia/Kolkata' });
  ts = await startTestServer({}, { database });
  [alice, bob, carol, dave] = await Promise.all([
    createUser(ts),
    createUser(ts),
    createUser(ts),
    createUser(ts),
  ]);
  const staff = await createUser(ts, { staff: true });
  staffApi = ts.api.as(staff.key);
  acme = await createOrganization(ts, dave);
  await ts.server.deps.db
    .update(organizationBilling)
    .set({ billingMethod: 'invoice' })
    .where(eq(organizationBilling.organizationId, acme.id));
  ws1 = await createWorkspace(ts, acme);
  ws2 = await createWorkspace(ts, acme);
  await addMember(ts, alice, acme, { workspaces: [{ workspace: ws1 }] });
  await addMember(ts, bob, acme, { workspaces: [{ workspace: ws1 }] });
  await addMember(ts, carol, acme, { workspaces: [{ workspace: ws2 }] });
  personal = (await ts.api.as(alice.key).get('/api/v2/user/me')).body.default_account;

  const aws = (zone: string) => ({ backendType: 'vm_aws', options: { zone } });
  await machine(ws1, alice, 'etl', { instanceType: 'local', cores: 2, memoryMib: 4096 }, [
    '01-31T23:50:00',
    '02-01T00:10:00',
  ]);
  await machine(
    ws1,
    bob,
    'train',
    { instanceType: 'm6i.xlarge', cores: 4, memoryMib: 16384 },
    ['02-01T23:30:00', '02-02T00:30:00'],
    { tags: { team: 'ml' }, ...aws('us-east-1a') },
  );
  await machine(
    ws2,
    carol,
    'gpu',
    { instanceType: 'g4dn.xlarge', cores: 4, memoryMib: 16384, gpus: 1 },
    ['02-02T10:00:00', '02-02T10:15:00'],
    {
      tags: { team: 'vision', 'cumulus-cluster-type': 'notebook' },
      backendType: 'vm_aws',
      options: { zone: 'us-east-1b', gpu_type: 'nvidia-tesla-t4' },
    },
  );
  await machine(personal, alice, 'solo', { instanceType: 'local', cores: 1, memoryMib: 2048 }, [
    '01-31T12:00:00',
    '01-31T12:05:00',
  ]);
  await meterWindow(ctx(), at('01-31T00:00:00'), at('02-03T00:00:00'));
}, 120_000);
afterAll(async () => {
  await ts?.close();
  await database?.close();
});

describe('metering', () => {
  it('runs this file in a session time zone that is not UTC', async () => {
    const result = await ts.server.deps.db.execute(sql`select current_setting('TimeZone') as tz`);
    expect((result as unknown as { rows: { tz: string }[] }).rows[0]!.tz).toBe('Asia/Kolkata');
  });

  it('writes each instance-minute once, however often and overlapping the windows metered', async () => {
    const { db } = ts.server.deps;
    expect(await db.$count(usageMinutes)).toBe(20 + 60 + 15 + 5);
    await meterWindow(ctx(), at('02-01T00:00:00'), at('02-02T12:00:00'));
    await meterWindow(ctx(), at('01-31T23:55:00'), at('02-01T00:05:00'));
    expect(await db.$count(usageMinutes)).toBe(100);
    expect((await usage(staffApi, { unit: 'instance-minutes' })).body.total).toBe(100);
  });
});

describe('usage', () => {
  it('sums every unit as computed by hand', async () => {
    const minutes = await grouped({ unit: 'instance-minutes', groupby: 'cluster' });
    expect(minutes.body.total).toBe(100);
    expect(minutes.totals).toEqual({
      [ids.etl]: 20,
      [ids.train]: 60,
      [ids.gpu]: 15,
      [ids.solo]: 5,
    });
    // Credits: etl 333,334 (minutes 50-59 of 23:00: 2,000,000 − 1,666,666) + 333,333 (minutes 0-9),
    // train 2,000,000 + 2,000,000, gpu 3,500,000 (14,000,000 × 15/60), solo 83,333 (1,000,000 × 5/60).
    const credits = await grouped({ unit: 'credits', groupby: 'cluster' });
    expect(credits.body.total).toBe(8.25);
    expect(credits.totals).toEqual({
      [ids.etl]: 0.666667,
      [ids.train]: 4,
      [ids.gpu]: 3.5,
      [ids.solo]: 0.083333,
    });
    expect(credits.labels[ids.train]).toBe(`train (${ids.train})`);
    // Groups come largest first.
    expect(credits.body.groups.map((g: { key: string }) => g.key)).toEqual(
      [ids.train, ids.gpu, ids.etl, ids.solo].map(String),
    );
    // Cloud: etl 16,667 + 16,666 (of 100,000 an hour), train 96,000 × 2 (of 192,000), gpu 131,500
    // (526,000 × 15/60), solo 4,166 (50,000 × 5/60).
    const cloud = await grouped({ unit: 'approx-cloud-cost', groupby: 'instance_type' });
    expect(cloud.body.total).toBe(0.360999);
    expect(cloud.totals).toEqual({ local: 0.037499, 'm6i.xlarge': 0.192, 'g4dn.xlarge': 0.1315 });
    // Cumulus: credits at $0.05 each, an hour at a time: etl 16,667 + 16,666, train 100,000 × 2,
    // gpu 175,000 (700,000 × 15/60), solo 4,166.
    const cost = await grouped({ unit: 'cumulus-cost', groupby: 'organization' });
    expect(cost.body.total).toBe(0.412499);
    expect(cost.totals).toEqual({ [acme.id]: 0.408333, [personal.organization.id]: 0.004166 });
  });

  it('buckets by hour, day, week and month in UTC across a day, a week and a month boundary', async () => {
    const buckets = async (period: string) =>
      Object.fromEntries(
        (await usage(staffApi, { unit: 'credits', period })).body.buckets.map(
          (b: { start: string; total: number }) => [b.start.slice(0, 16), b.total],
        ),
      );
    expect(await buckets('hour')).toEqual({
      '2026-01-31T12:00': 0.083333,
      '2026-01-31T23:00': 0.333334,
      '2026-02-01T00:00': 0.333333,
      '2026-02-01T23:00': 2,
      '2026-02-02T00:00': 2,
      '2026-02-02T10:00': 3.5,
    });
    expect(await buckets('day')).toEqual({
      '2026-01-31T00:00': 0.416667,
      '2026-02-01T00:00': 2.333333,
      '2026-02-02T00:00': 5.5,
    });
    // Weeks start on Monday: Jan 26 holds Saturday Jan 31 and Sunday Feb 1.
    expect(await buckets('week')).toEqual({ '2026-01-26T00:00': 2.75, '2026-02-02T00:00': 5.5 });
    expect(await buckets('month')).toEqual({ '2026-01-01T00:00': 0.416667, '2026-02-01T00:00': 7.833333 });
    // Bucket starts are UTC instants on the wire.
    const [first] = (await usage(staffApi, { unit: 'credits', period: 'day' })).body.buckets;
    expect(first.start).toBe('2026-01-31T00:00:00.000000+00:00');

    // Grouped, each bucket holds its groups' values.
    const byUser = (await usage(staffApi, { unit: 'credits', period: 'day', groupby: 'user' })).body;
    const [a, b, c] = [alice.id, bob.id, carol.id].map(String) as [string, string, string];
    expect(byUser.buckets).toEqual([
      { start: '2026-01-31T00:00:00.000000+00:00', total: 0.416667, values: { [a]: 0.416667 } },
      { start: '2026-02-01T00:00:00.000000+00:00', total: 2.333333, values: { [a]: 0.333333, [b]: 2 } },
      { start: '2026-02-02T00:00:00.000000+00:00', total: 5.5, values: { [b]: 2, [c]: 3.5 } },
    ]);
    // A range of one day takes only that day; a range outside everything is empty.
    expect(
      (await usage(staffApi, { unit: 'credits', start: '2026-02-01', end: '2026-02-01' })).body.total,
    ).toBe(2.333333);
    const outside = await usage(staffApi, {
      unit: 'instance-minutes',
      start: '2026-02-03',
      end: '2026-02-04',
    });
    expect(outside.body).toMatchObject({ total: 0, groups: [], buckets: [] });
  });

  it('groups by each of the eleven dimensions with their sums', async () => {
    const credits = (groupby: string, extra: Record<string, string> = {}) =>
      grouped({ unit: 'credits', groupby, ...extra });

    const account = await credits('account');
    expect(account.totals).toEqual({ [ws1.id]: 4.666667, [ws2.id]: 3.5, [personal.id]: 0.083333 });
    expect(account.labels).toEqual({ [ws1.id]: ws1.name, [ws2.id]: ws2.name, [personal.id]: personal.name });

    const billing = await credits('billing_method');
    expect(billing.totals).toEqual({ invoice: 8.166667, '': 0.083333 });
    expect(billing.labels['']).toBe('no billing method');

    expect((await credits('cloud_provider')).totals).toEqual({ aws: 7.5, local: 0.75 });
    expect((await credits('cluster_type')).totals).toEqual({ notebook: 3.5, standard: 4.75 });
    expect((await credits('cluster')).totals).toEqual({
      [ids.etl]: 0.666667,
      [ids.train]: 4,
      [ids.gpu]: 3.5,
      [ids.solo]: 0.083333,
    });

    const gpu = await credits('gpu_type');
    expect(gpu.totals).toEqual({ 'nvidia-tesla-t4': 3.5, '': 4.75 });
    expect(gpu.labels['']).toBe('no GPU');

    expect((await credits('instance_type')).totals).toEqual({
      local: 0.75,
      'm6i.xlarge': 4,
      'g4dn.xlarge': 3.5,
    });

    const organization = await credits('organization');
    expect(organization.totals).toEqual({ [acme.id]: 8.166667, [personal.organization.id]: 0.083333 });
    expect(organization.labels[acme.id]).toBe(acme.name);

    const tag = await credits('tag', { groupby_tag: 'team' });
    expect(tag.totals).toEqual({ ml: 4, vision: 3.5, '': 0.75 });
    expect(tag.labels['']).toBe('untagged');

    const user = await credits('user');
    expect(user.totals).toEqual({ [alice.id]: 0.75, [bob.id]: 4, [carol.id]: 3.5 });
    expect(user.labels).toEqual({
      [alice.id]: alice.username,
      [bob.id]: bob.username,
      [carol.id]: carol.username,
    });

    const zone = await credits('zone');
    expect(zone.totals).toEqual({ 'us-east-1a': 4, 'us-east-1b': 3.5, '': 0.75 });
    expect(zone.labels['']).toBe('no zone');

    // Filters narrow before grouping.
    const filtered = await credits('user', { group_filters: JSON.stringify({ instance_type: ['local'] }) });
    expect(filtered.totals).toEqual({ [alice.id]: 0.75 });
    const twoFilters = await credits('cluster', {
      group_filters: JSON.stringify({ account: [ws1.id], zone: ['us-east-1a'] }),
    });
    expect(twoFilters.totals).toEqual({ [ids.train]: 4 });
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
      const res = await usage(staffApi, q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(Object.keys(res.body), JSON.stringify(q)).toContain(field);
    }
  });
});

describe('who sees what', () => {
  const total = async (user: TestUser, q: Record<string, string> = {}) => {
    const res = await usage(ts.api.as(user.key), { unit: 'credits', groupby: 'account', ...q });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("keeps a member of a sibling workspace out of the other workspace's usage", async () => {
    // Carol is in ws2 only: she sees the gpu cluster, not ws1 next door in the same organization.
    const mine = await total(carol);
    expect(mine.total).toBe(3.5);
    expect(mine.groups.map((g: { key: string }) => g.key)).toEqual([String(ws2.id)]);
    // Asking for ws1 by filter gives nothing either.
    const asked = await total(carol, { group_filters: JSON.stringify({ account: [ws1.id] }) });
    expect(asked).toMatchObject({ total: 0, groups: [], buckets: [] });
    // Alice sees ws1 and her personal workspace, not ws2.
    const alices = await total(alice);
    expect(alices.total).toBe(4.75);
    expect(alices.groups.map((g: { key: string }) => g.key).sort()).toEqual(
      [String(ws1.id), String(personal.id)].sort(),
    );
  });

  it("shows an organization admin the whole organization's usage, and staff everything", async () => {
    // Dave administers acme without belonging to either workspace.
    const org = await total(dave);
    expect(org.total).toBe(8.166667);
    expect(
      Object.fromEntries(org.groups.map((g: { key: string; total: number }) => [g.key, g.total])),
    ).toEqual({
      [ws1.id]: 4.666667,
      [ws2.id]: 3.5,
    });
    const stranger = await createUser(ts);
    expect((await total(stranger)).total).toBe(0);
    expect((await usage(staffApi, { unit: 'credits' })).body.total).toBe(8.25);
    expect((await ts.api.get('/api/v2/usage/', { query: { unit: 'credits', ...RANGE } })).status).toBe(401);
  });
});
