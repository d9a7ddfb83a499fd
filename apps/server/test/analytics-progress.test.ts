import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, clusterProcesses, clusters, instances } from '../src/db/schema/index.js';
import { analyticsWorld } from './helpers/analytics-world.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// The cluster page's Analytics tab reads one computation in full (task groups, exceptions) and
// what runs now (progress); its Metrics tab reads host metrics per instance or cluster-wide.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, 120_000);
afterAll(() => ts.close());

/** The analytics world, its paths under the cluster (`.../cluster/<id>`). */
async function world() {
  const w = await analyticsWorld(ts);
  return { ...w, base: `${w.base}/cluster/${w.cluster.id}` };
}

const report = (token: string, body: unknown) =>
  ts.api.post('/api/v2/analytics/metrics', body, { headers: { authorization: `Bearer ${token}` } });

const T0 = Math.floor(Date.now() / 1000) - 60;
const ident = (cluster: Cluster) => `Scheduler-${cluster.id}-progress`;

/** A computation half way: `inc` 3 of 10 done, `sum` waiting; another one finished earlier. */
function halfWay(cluster: Cluster) {
  return {
    ident: ident(cluster),
    time: T0 + 3,
    computations: [
      { id: 'old', start: T0 - 30, stop: T0 - 20, n_tasks: 1, n_groups: 1, states: { memory: 1 }, code: 'a' },
      {
        id: 'now',
        start: T0,
        stop: null,
        n_tasks: 11,
        n_groups: 2,
        states: { memory: 3, processing: 4, waiting: 4 },
        code: 'total = x.map(inc).sum()\ntotal.compute()',
      },
    ],
    task_groups: [
      {
        name: 'inc-aaa',
        prefix: 'inc',
        computation: 'now',
        start: T0,
        stop: T0 + 2,
        durations: { compute: 1.5 },
        nbytes: 240,
        n_tasks: 10,
        states: { memory: 2, erred: 1, processing: 4, waiting: 3 },
      },
      {
        name: 'sum-bbb',
        prefix: 'sum',
        computation: 'now',
        start: null,
        stop: null,
        n_tasks: 1,
        states: { waiting: 1 },
      },
      {
        name: 'old-ccc',
        prefix: 'old',
        computation: 'old',
        start: T0 - 30,
        stop: T0 - 20,
        durations: { compute: 9 },
        n_tasks: 1,
        states: { memory: 1 },
      },
    ],
    exceptions: [
      {
        key: "('inc-aaa', 7)",
        prefix: 'inc',
        computation: 'now',
        exception: 'ValueError: seven',
        traceback: 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: seven',
        worker: 'tls://w1',
        time: T0 + 1,
      },
    ],
    n_workers: 1,
    threads: 2,
    memory: 240,
    n_tasks: 12,
    processing: 4,
  };
}

describe('a computation in full, and what runs now', () => {
  it('answers a computation with its task groups (done/total, durations) and its exceptions', async () => {
    const w = await world();
    expect((await report(w.token, halfWay(w.cluster))).status).toBe(200);
    const [listedNow] = (await w.asMember.get(`${w.base}/computations/list`)).body;
    expect(listedNow.identifier).toBe('now');

    const detail = await w.asMember.get(`${w.base}/computations/${listedNow.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      identifier: 'now',
      stop: null,
      code: 'total = x.map(inc).sum()\ntotal.compute()',
      n_exceptions: 1,
      task_prefixes: ['inc', 'sum'],
    });
    expect(detail.body.task_groups).toEqual([
      expect.objectContaining({
        name: 'inc-aaa',
        prefix: 'inc',
        duration: 2,
        compute_seconds: 1.5,
        n_tasks: 10,
        n_done: 3,
        n_erred: 1,
      }),
      expect.objectContaining({ name: 'sum-bbb', duration: null, n_tasks: 1, n_done: 0 }),
    ]);
    expect(detail.body.exceptions).toEqual([
      expect.objectContaining({ key: "('inc-aaa', 7)", exception: 'ValueError: seven' }),
    ]);
    expect(detail.body.exceptions[0].traceback).toContain('Traceback (most recent call last)');

    // Another cluster's computation, or one that does not exist, is not found.
    const other = await world();
    await report(other.token, halfWay(other.cluster));
    const [theirs] = (await other.asMember.get(`${other.base}/computations/list`)).body;
    expect((await w.asMember.get(`${w.base}/computations/${theirs.id}`)).status).toBe(404);
    expect((await ts.api.as(w.outsider.key).get(`${w.base}/computations/${listedNow.id}`)).status).toBe(404);
  });

  it('shows what runs now with done/total per task group, and nothing once it finished', async () => {
    const w = await world();
    const empty = await w.asMember.get(`${w.base}/progress`);
    expect(empty.status).toBe(200);
    expect(empty.body.computations).toEqual([]);

    await report(w.token, halfWay(w.cluster));
    const running = await w.asMember.get(`${w.base}/progress`);
    expect(running.body.computations).toHaveLength(1);
    expect(running.body.computations[0]).toMatchObject({
      identifier: 'now',
      n_tasks: 11,
      n_done: 3,
      n_groups: 2,
      code: 'total = x.map(inc).sum()\ntotal.compute()',
    });
    expect(running.body.computations[0].task_groups.map((g: any) => [g.name, g.n_done, g.n_tasks])).toEqual([
      ['inc-aaa', 3, 10],
      ['sum-bbb', 0, 1],
    ]);

    // The next report: done. Nothing runs any more.
    await report(w.token, {
      ident: ident(w.cluster),
      time: T0 + 9,
      computations: [
        { id: 'now', start: T0, stop: T0 + 8, n_tasks: 11, n_groups: 2, states: { memory: 11 } },
      ],
      task_groups: [
        { name: 'sum-bbb', prefix: 'sum', computation: 'now', n_tasks: 1, states: { memory: 1 } },
      ],
    });
    expect((await w.asMember.get(`${w.base}/progress`)).body.computations).toEqual([]);
    expect((await ts.api.as(w.outsider.key).get(`${w.base}/progress`)).status).toBe(404);
  });

  it('calls a computation finished once all its task groups are done, though no report said so', async () => {
    const w = await world();
    const statuses = async () =>
      Object.fromEntries(
        (await w.asMember.get(`${w.base}/computations/list`)).body.map((c: any) => [c.identifier, c.status]),
      );
    await report(w.token, halfWay(w.cluster));
    expect(await statuses()).toEqual({ now: 'running', old: 'finished' });

    // Later reports carry only its task groups, every task now done (one erred): so is the computation.
    await report(w.token, {
      ident: ident(w.cluster),
      time: T0 + 9,
      computations: [],
      task_groups: [
        {
          name: 'inc-aaa',
          prefix: 'inc',
          computation: 'now',
          start: T0,
          stop: T0 + 6,
          states: { memory: 9, erred: 1 },
        },
        {
          name: 'sum-bbb',
          prefix: 'sum',
          computation: 'now',
          start: T0 + 6,
          stop: T0 + 8,
          states: { memory: 1 },
        },
      ],
    });
    expect(await statuses()).toEqual({ now: 'erred', old: 'finished' });
    const [now] = (await w.asMember.get(`${w.base}/computations/list`)).body;
    expect(new Date(now.stop).getTime()).toBe((T0 + 8) * 1000);
    expect((await w.asMember.get(`${w.base}/progress`)).body.computations).toEqual([]);

    // One with a group not reported yet is not cut short by the groups it has.
    await report(w.token, {
      ident: ident(w.cluster),
      time: T0 + 20,
      computations: [
        {
          id: 'parts',
          start: T0 + 10,
          stop: null,
          n_tasks: 2,
          n_groups: 2,
          states: { memory: 1, processing: 1 },
        },
      ],
      task_groups: [
        {
          name: 'a-ddd',
          prefix: 'a',
          computation: 'parts',
          start: T0 + 10,
          stop: T0 + 11,
          states: { memory: 1 },
        },
      ],
    });
    expect((await statuses()).parts).toBe('running');
  });

  it('calls a computation its scheduler or cluster stopped before it finished unfinished', async () => {
    const w = await world();
    await report(w.token, halfWay(w.cluster));
    await ts.api.post(
      '/api/v2/analytics/close',
      { scheduler_id: ident(w.cluster), reason: 'lost' },
      { headers: { authorization: `Bearer ${w.token}` } },
    );
    const listed = (await w.asMember.get(`${w.base}/computations/list`)).body;
    expect(listed.map((c: any) => [c.identifier, c.status])).toEqual([
      ['now', 'unfinished'],
      ['old', 'finished'],
    ]);
    expect((await w.asMember.get(`${w.base}/computations/${listed[0].id}`)).body.status).toBe('unfinished');

    const v = await world();
    await report(v.token, halfWay(v.cluster));
    await ts.server.deps.db.update(clusters).set({ state: 'stopped' }).where(eq(clusters.id, v.cluster.id));
    const [stopped] = (await v.asMember.get(`${v.base}/computations/list`)).body;
    expect(stopped.status).toBe('unfinished');
  });

  it('shows nothing running on a scheduler that closed or a cluster that stopped', async () => {
    const w = await world();
    await report(w.token, halfWay(w.cluster));
    await ts.server.deps.db.update(clusters).set({ state: 'stopped' }).where(eq(clusters.id, w.cluster.id));
    expect((await w.asMember.get(`${w.base}/progress`)).body.computations).toEqual([]);

    const v = await world();
    await report(v.token, halfWay(v.cluster));
    await ts.api.post(
      '/api/v2/analytics/close',
      { scheduler_id: ident(v.cluster), reason: 'lost' },
      { headers: { authorization: `Bearer ${v.token}` } },
    );
    expect((await v.asMember.get(`${v.base}/progress`)).body.computations).toEqual([]);
  });
});

describe('host metrics cluster-wide', () => {
  it('combines the instances: CPU averaged, memory and traffic summed, Dask series kept', async () => {
    const w = await world();
    const db = ts.server.deps.db;
    const [worker] = await db.select().from(instances).where(eq(instances.clusterId, w.cluster.id));
    const [process] = await db
      .insert(clusterProcesses)
      .values({
        clusterId: w.cluster.id,
        role: 'scheduler',
        name: `${w.cluster.name}-scheduler`,
        state: 'started',
      })
      .returning();
    const [scheduler] = await db
      .insert(instances)
      .values({
        clusterId: w.cluster.id,
        processId: process!.id,
        role: 'scheduler',
        name: `${w.cluster.name}-scheduler`,
        backendType: 'in_process',
        backendId: `local-${randomBytes(8).toString('hex')}`,
        state: 'ready',
      })
      .returning();
    const now = Math.floor(Date.now() / 1000) - 30;
    const sample = (cpu: number, memory: number) => ({
      time: now,
      cpu,
      memory_used: memory,
      memory_total: 8e9,
      net_rx: 100,
      net_tx: 50,
      disk_read: 0,
      disk_write: 0,
    });
    await report(w.token, { host: { backend_id: worker!.backendId, samples: [sample(80, 3e9)] } });
    await report(w.token, { host: { backend_id: scheduler!.backendId, samples: [sample(20, 1e9)] } });
    const series = `/api/v2/metrics/account/${w.workspace.slug}/cluster/${w.cluster.id}`;
    const get = async (query: Record<string, string | number>) =>
      (await w.asMember.get(series, { query: { start: now - 60, ...query } })).body.series;

    const perInstance = await get({ query: 'cpu' });
    expect(perInstance.map((s: any) => s.metric.role).sort()).toEqual(['scheduler', 'worker']);
    const [cpu] = await get({ query: 'cpu', by: 'cluster' });
    expect(cpu.metric).toEqual({ name: 'cpu', instance: 'cluster', instances: '2', scope: 'host' });
    expect(cpu.values.map(([, v]: [number, number]) => v)).toEqual([50]);
    const [memory] = await get({ query: 'memory', by: 'cluster' });
    expect(memory.metric.total).toBe('16000000000');
    expect(memory.values[0][1]).toBe(4e9);
    const network = await get({ query: 'network', by: 'cluster' });
    expect(network.map((s: any) => [s.metric.direction, s.values[0][1]])).toEqual([
      ['receive', 200],
      ['send', 100],
    ]);
    const tasks = await get({ query: 'tasks', by: 'cluster' });
    expect(tasks.map((s: any) => s.metric.state)).toEqual(['processing', 'waiting', 'memory']);
    expect((await w.asMember.get(series, { query: { query: 'cpu', by: 'node' } })).status).toBe(400);
  });
});
