import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceLogs, instances } from '../src/db/schema/index.js';
import { createClusterRow, createUser, type TestUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
let ann: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  ann = await createUser(ts);
  outsider = await createUser(ts);
}, 120_000);
afterAll(() => ts?.close());

/** A cluster (one worker instance) with lines at t = 1000, 2000, ... alternating dask and system. */
async function clusterWithLines(n: number) {
  const { db } = ts.server.deps;
  const account = (await ts.api.as(ann.key).get('/api/v2/user/me')).body.default_account;
  const cluster = await createClusterRow(ts, account, ann);
  const [instance] = await db.select().from(instances).where(eq(instances.clusterId, cluster.id));
  await db.insert(instanceLogs).values(
    Array.from({ length: n }, (_, i) => ({
      clusterId: cluster.id,
      instanceId: instance!.id,
      // Two lines share each timestamp: the session must order by id within it.
      timestampMs: 1000 * (1 + Math.floor(i / 2)),
      source: i % 2 === 0 ? ('dask' as const) : ('system' as const),
      message: `line ${i}${i % 3 === 0 ? ' needle' : ''}`,
    })),
  );
  return { cluster, instance: instance! };
}

describe('log page sessions', () => {
  it('pages through every line once, in order, and continues with lines that arrive later', async () => {
    const { cluster, instance } = await clusterWithLines(7);
    const api = ts.api.as(ann.key);
    const base = `/api/v2/logs/cluster/${cluster.id}/page/`;
    const first = await api.post(base, { page_size: 3 });
    expect(first.status).toBe(200);
    expect(first.body.events.map((e: any) => e.message)).toEqual(['line 0 needle', 'line 1', 'line 2']);
    expect(first.body.events[0]).toEqual({
      timestamp: 1000,
      instance_id: instance.id,
      message: 'line 0 needle',
      instance: instance.name,
      source: 'dask',
      task_id: null,
    });
    expect(first.body.has_more).toBe(true);

    const seen = [...first.body.events];
    let next = first.body.next;
    for (;;) {
      const page = await api.get(`${base}${encodeURIComponent(next)}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.events);
      next = page.body.next;
      if (!page.body.has_more) break;
    }
    expect(seen.map((e: any) => e.message)).toEqual(
      Array.from({ length: 7 }, (_, i) => expect.stringMatching(new RegExp(`^line ${i}( needle)?$`))),
    );

    const idle = await api.get(`${base}${encodeURIComponent(next)}`);
    expect(idle.body).toMatchObject({ events: [], has_more: false });
    await ts.server.deps.db.insert(instanceLogs).values({
      clusterId: cluster.id,
      instanceId: instance.id,
      timestampMs: 9000,
      source: 'dask',
      message: 'late',
    });
    const later = await api.get(`${base}${encodeURIComponent(idle.body.next)}`);
    expect(later.body.events.map((e: any) => e.message)).toEqual(['late']);
  });

  it('keeps the filters of the session on every page', async () => {
    const { cluster } = await clusterWithLines(12);
    const api = ts.api.as(ann.key);
    const base = `/api/v2/logs/cluster/${cluster.id}/page/`;
    const first = await api.post(base, {
      page_size: 1,
      dask: true,
      filter_pattern: 'NEEDLE',
      since_ms: 2000,
    });
    const messages = [...first.body.events];
    let next = first.body.next;
    for (let i = 0; i < 10; i++) {
      const page = await api.get(`${base}${encodeURIComponent(next)}`);
      messages.push(...page.body.events);
      next = page.body.next;
    }
    // dask lines are the even ones; needles every third; since 2000 drops lines 0 and 1.
    expect(messages.map((e: any) => e.message)).toEqual(['line 6 needle']);
    const none = await api.post(base, { dask: false, system: false });
    expect(none.body.events).toEqual([]);
  });

  it('refuses a session that was altered or names another cluster, and hides clusters of others', async () => {
    const { cluster } = await clusterWithLines(2);
    const { cluster: second } = await clusterWithLines(2);
    const api = ts.api.as(ann.key);
    const started = await api.post(`/api/v2/logs/cluster/${cluster.id}/page/`, { page_size: 1 });
    const session: string = started.body.next;
    const flipped = `${session.slice(0, -2)}${session.at(-2) === 'A' ? 'B' : 'A'}${session.at(-1)}`;
    for (const bad of [flipped, 'garbage', session.split('.').slice(0, 3).join('.')]) {
      const refused = await api.get(`/api/v2/logs/cluster/${cluster.id}/page/${encodeURIComponent(bad)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INVALID_LOG_SESSION');
    }
    const elsewhere = await api.get(`/api/v2/logs/cluster/${second.id}/page/${encodeURIComponent(session)}`);
    expect(elsewhere.status).toBe(400);
    const stranger = ts.api.as(outsider.key);
    expect((await stranger.post(`/api/v2/logs/cluster/${cluster.id}/page/`, {})).status).toBe(404);
    expect(
      (await stranger.get(`/api/v2/logs/cluster/${cluster.id}/page/${encodeURIComponent(session)}`)).status,
    ).toBe(404);
    expect((await api.post(`/api/v2/logs/cluster/${cluster.id}/page/`, { page_size: 0 })).status).toBe(400);
  });
});
