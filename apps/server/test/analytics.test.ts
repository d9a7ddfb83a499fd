import { deflateSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, hostMetrics, instances } from '../src/db/schema/index.js';
import { pruneHostMetrics } from '../src/domains/observability/index.js';
import { analyticsWorld } from './helpers/analytics-world.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, 120_000);
afterAll(() => ts.close());

const world = () => analyticsWorld(ts);

/** Calls as the cluster's instances do, with its bearer token. */
const clusterCall = (token: string) => ({
  post: (url: string, body: unknown, headers: Record<string, string> = {}) =>
    ts.api.post(url, body, { headers: { authorization: `Bearer ${token}`, ...headers } }),
  get: (url: string) => ts.api.get(url, { headers: { authorization: `Bearer ${token}` } }),
});

const T0 = 1_780_000_000; // epoch seconds
const scheduler = (cluster: Cluster) => `Scheduler-${cluster.id}-0000`;

/** A report as the analytics preload sends it: one computation, its groups, an exception, gauges. */
function firstReport(cluster: Cluster) {
  return {
    ident: scheduler(cluster),
    time: T0 + 2,
    computations: [
      {
        id: 'c-1',
        start: T0,
        stop: null,
        n_tasks: 12,
        n_groups: 2,
        states: { processing: 4, memory: 8 },
        code: 'x.sum().compute()',
      },
    ],
    task_groups: [
      {
        name: 'inc-aaa',
        prefix: 'inc',
        computation: 'c-1',
        start: T0,
        stop: T0 + 2,
        durations: { compute: 3, transfer: 0.5 },
        nbytes: 800,
        n_tasks: 10,
        states: { memory: 8, processing: 2 },
        types: ['numpy.ndarray'],
      },
      {
        name: 'sum-bbb',
        prefix: 'sum',
        computation: 'c-1',
        start: null,
        stop: null,
        n_tasks: 2,
        states: { waiting: 2 },
      },
    ],
    exceptions: [
      {
        key: "('inc-aaa', 3)",
        prefix: 'inc',
        computation: 'c-1',
        exception: 'ZeroDivisionError()',
        traceback: 'Traceback...',
        worker: 'tls://w1',
        time: T0 + 1,
      },
    ],
    durations: [
      { prefix: 'inc', action: 'compute', seconds: 3 },
      { prefix: 'inc', action: 'transfer', seconds: 0.5 },
    ],
    n_workers: 2,
    threads: 4,
    memory: 1600,
    n_tasks: 12,
    processing: 4,
  };
}

/** The next report: the groups changed, so they come again (and must not be counted twice). */
function secondReport(cluster: Cluster) {
  return {
    ident: scheduler(cluster),
    time: T0 + 7,
    computations: [{ id: 'c-1', start: T0, stop: T0 + 6, n_tasks: 12, n_groups: 2, states: { memory: 12 } }],
    task_groups: [
      {
        name: 'inc-aaa',
        prefix: 'inc',
        computation: 'c-1',
        start: T0,
        stop: T0 + 5,
        durations: { compute: 5, transfer: 0.5 },
        nbytes: 1000,
        n_tasks: 10,
        states: { memory: 10 },
      },
      {
        name: 'sum-bbb',
        prefix: 'sum',
        computation: 'c-1',
        start: T0 + 5,
        stop: T0 + 6,
        durations: { compute: 1 },
        nbytes: 8,
        n_tasks: 2,
        states: { memory: 2 },
      },
    ],
    durations: [
      { prefix: 'inc', action: 'compute', seconds: 2 },
      { prefix: 'sum', action: 'compute', seconds: 1 },
    ],
    n_workers: 3,
    threads: 6,
    memory: 2000,
    n_tasks: 12,
    processing: 0,
  };
}

describe('scheduler reports', () => {
  it('stores computations, task groups, exceptions and samples, and answers them to the workspace', async () => {
    const w = await world();
    const as = clusterCall(w.token);
    const id = scheduler(w.cluster);
    expect(
      (await as.post('/api/v2/analytics/register', { scheduler_id: id, python_version: '3.11' })).status,
    ).toBe(200);
    const first = await as.post('/api/v2/analytics/metrics', firstReport(w.cluster));
    expect(first.body).toEqual({
      computations: 1,
      task_groups: 2,
      exceptions: 1,
      durations: 2,
      spans: 0,
      samples: 1,
      host_samples: 0,
    });
    expect((await as.post('/api/v2/analytics/metrics', secondReport(w.cluster))).status).toBe(200);

    const listed = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/computations/list`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: expect.any(Number),
        identifier: 'c-1',
        cluster_id: w.cluster.id,
        scheduler_id: id,
        start: '2026-05-28T20:26:40.000000+00:00',
        stop: '2026-05-28T20:26:46.000000+00:00',
        duration: 6,
        n_tasks: 12,
        n_groups: 2,
        states: { memory: 12 },
        code: 'x.sum().compute()',
        compute_seconds: 6,
        task_prefixes: ['inc', 'sum'],
        n_exceptions: 1,
        status: 'erred',
      },
    ]);
    expect((await w.asMember.get(`${w.base}/${id}/computations/list`)).body).toEqual(listed.body);
    expect(
      (await w.asMember.get(`${w.base}/${id}/computations/list`, { query: { offset: 1 } })).body,
    ).toEqual([]);

    const summary = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/summary`);
    expect(summary.body).toMatchObject({
      cluster_id: w.cluster.id,
      scheduler_ids: [id],
      n_computations: 1,
      n_tasks: 12,
      n_exceptions: 1,
      n_task_prefixes: 2,
      compute_seconds: 6,
      nbytes: 1008,
      durations: { compute: 6, transfer: 0.5 },
    });
    expect(summary.body.task_prefixes).toEqual([
      {
        prefix: 'inc',
        n_groups: 1,
        n_tasks: 10,
        compute_seconds: 5,
        durations: { compute: 5, transfer: 0.5 },
        states: { memory: 10 },
        nbytes: 1000,
        start: '2026-05-28T20:26:40.000000+00:00',
        stop: '2026-05-28T20:26:45.000000+00:00',
      },
      expect.objectContaining({ prefix: 'sum', compute_seconds: 1, n_tasks: 2 }),
    ]);
    const top = await w.asMember.get(`${w.base}/dask/${id}/summary`, { query: { task_prefix_limit: 1 } });
    expect(top.body.task_prefixes.map((p: any) => p.prefix)).toEqual(['inc']);
    expect(top.body.n_task_prefixes).toBe(2);

    const byPrefix = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/timeseries`, {
      query: { interval: 5 },
    });
    expect(byPrefix.body.interval).toBe(5);
    expect(byPrefix.body.series).toEqual([
      {
        name: 'inc',
        total_seconds: 5,
        points: [
          { time: '2026-05-28T20:26:40.000000+00:00', seconds: 3 },
          { time: '2026-05-28T20:26:45.000000+00:00', seconds: 2 },
        ],
      },
      { name: 'sum', total_seconds: 1, points: [{ time: '2026-05-28T20:26:45.000000+00:00', seconds: 1 }] },
    ]);
    expect(byPrefix.body.samples.map((s: any) => s.n_workers)).toEqual([2, 3]);
    const total = await w.asMember.get(`${w.base}/dask/${id}/timeseries`, {
      query: { group_by: 'none', duration_type: 'all', interval: '1m' },
    });
    expect(total.body.interval).toBe(60);
    expect(total.body.series).toEqual([
      {
        name: 'total',
        total_seconds: 6.5,
        points: [{ time: '2026-05-28T20:26:00.000000+00:00', seconds: 6.5 }],
      },
    ]);
    const byAction = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/timeseries`, {
      query: { group_by: 'action', duration_type: 'all' },
    });
    expect(byAction.body.series.map((s: any) => [s.name, s.total_seconds])).toEqual([
      ['compute', 6],
      ['transfer', 0.5],
    ]);

    const exceptions = await w.asMember.get(`${w.base}/exceptions/list`);
    expect(exceptions.body).toEqual([
      {
        id: expect.any(Number),
        cluster_id: w.cluster.id,
        scheduler_id: id,
        computation: 'c-1',
        key: "('inc-aaa', 3)",
        task_prefix: 'inc',
        exception: 'ZeroDivisionError()',
        traceback: 'Traceback...',
        worker: 'tls://w1',
        time: '2026-05-28T20:26:41.000000+00:00',
      },
    ]);
    const filtered = async (query: Record<string, string | number>) =>
      (await w.asMember.get(`${w.base}/exceptions/list`, { query })).body.length;
    expect(await filtered({ cluster: w.cluster.id, scheduler: id, user: w.member.id, since: T0 })).toBe(1);
    expect(await filtered({ since: T0 + 2 })).toBe(0);
    expect(await filtered({ scheduler: 'Scheduler-other' })).toBe(0);
    expect(await filtered({ user: w.outsider.id })).toBe(0);

    const overview = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}`);
    expect(overview.body).toMatchObject({
      id: w.cluster.id,
      name: w.cluster.name,
      n_computations: 1,
      n_exceptions: 1,
      compute_seconds: 6,
      schedulers: [
        {
          scheduler_id: id,
          closed: null,
          last_report: '2026-05-28T20:26:47.000000+00:00',
          info: expect.objectContaining({ python_version: '3.11' }),
        },
      ],
      last_sample: {
        time: '2026-05-28T20:26:47.000000+00:00',
        n_workers: 3,
        threads: 6,
        memory: 2000,
        n_tasks: 12,
        processing: 0,
      },
      last_profile: null,
    });

    await as.post('/api/v2/analytics/close', { scheduler_id: id, reason: 'idle' });
    const events = await w.asMember.get(`${w.base}/${w.cluster.id}/events/list`);
    expect(events.body.map((e: any) => e.name)).toEqual(['close', 'register']);
    expect(
      (
        await w.asMember.get(`${w.base}/${w.cluster.id}/events/list`, { query: { limit: 1, offset: 1 } })
      ).body.map((e: any) => e.name),
    ).toEqual(['register']);
    const closed = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}`);
    expect(closed.body.schedulers[0]).toMatchObject({ close_reason: 'idle', closed: expect.any(String) });
  });

  it('shows nothing of a cluster or scheduler to other workspaces', async () => {
    const w = await world();
    const id = scheduler(w.cluster);
    await clusterCall(w.token).post('/api/v2/analytics/metrics', firstReport(w.cluster));
    const asOutsider = ts.api.as(w.outsider.key);
    for (const path of [
      `/cluster/${w.cluster.id}`,
      `/cluster/${w.cluster.id}/summary`,
      `/cluster/${w.cluster.id}/computations/list`,
      `/dask/${id}/summary`,
      `/${id}/computations/list`,
      '/exceptions/list',
    ]) {
      expect((await asOutsider.get(`${w.base}${path}`)).status, path).toBe(404);
    }
    // The outsider's own workspace does not know the scheduler either.
    const own = (await asOutsider.get('/api/v2/user/me')).body.default_account.slug;
    const elsewhere = await asOutsider.get(`/api/v2/analytics/${own}/dask/${id}/summary`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.detail).toBe('Scheduler not found.');
    expect((await asOutsider.get(`/api/v2/analytics/${own}/exceptions/list`)).body).toEqual([]);
    // A user credential is no cluster token.
    expect((await w.asMember.post('/api/v2/analytics/metrics', firstReport(w.cluster))).status).toBe(401);
  });

  it('takes gzip and zlib compressed reports, and refuses what is not', async () => {
    const w = await world();
    const as = clusterCall(w.token);
    const octets = { 'content-type': 'application/octet-stream' };
    const gz = await ts.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/metrics-compress',
      headers: { authorization: `Bearer ${w.token}`, ...octets },
      payload: gzipSync(JSON.stringify(firstReport(w.cluster))),
    });
    expect(gz.statusCode).toBe(200);
    expect(gz.json()).toMatchObject({ computations: 1, task_groups: 2, exceptions: 1 });
    const zl = await ts.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/metrics-compress',
      headers: { authorization: `Bearer ${w.token}`, ...octets },
      payload: deflateSync(JSON.stringify(secondReport(w.cluster))),
    });
    expect(zl.statusCode).toBe(200);
    const listed = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/computations/list`);
    expect(listed.body.map((c: any) => [c.identifier, c.stop !== null, c.compute_seconds])).toEqual([
      ['c-1', true, 6],
    ]);

    const garbage = await as.post('/api/v2/analytics/metrics-compress', 'not compressed', octets);
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('PARSE_ERROR');
    const invalid = await ts.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/metrics-compress',
      headers: { authorization: `Bearer ${w.token}`, ...octets },
      payload: gzipSync(JSON.stringify({ ident: 'x', task_groups: [{ name: 'a' }] })),
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toHaveProperty(['task_groups.0.prefix']);
    // More groups than one report may carry.
    const many = {
      ident: 'x',
      task_groups: Array.from({ length: 2001 }, () => ({ name: 'a', prefix: 'a', computation: 'c' })),
    };
    expect((await as.post('/api/v2/analytics/metrics', many)).status).toBe(400);
  });

  it('stores a full report of 2000 task groups in one go', async () => {
    const w = await world();
    const groups = Array.from({ length: 2000 }, (_, i) => ({
      name: `f${i % 40}-${i}`,
      prefix: `f${i % 40}`,
      computation: `c-${i % 3}`,
      start: T0,
      stop: T0 + 1,
      durations: { compute: 0.5 },
      n_tasks: 3,
      states: { memory: 3 },
    }));
    const report = {
      ident: scheduler(w.cluster),
      computations: [0, 1, 2].map((i) => ({ id: `c-${i}`, start: T0 + i, stop: T0 + 3 })),
      task_groups: groups,
    };
    const stored = await clusterCall(w.token).post('/api/v2/analytics/metrics', report);
    expect(stored.body).toMatchObject({ computations: 3, task_groups: 2000 });
    const summary = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/summary`, {
      query: { task_prefix_limit: 1000 },
    });
    expect(summary.body).toMatchObject({ n_computations: 3, compute_seconds: 1000, n_task_prefixes: 40 });
    expect(summary.body.task_prefixes).toHaveLength(40);
    expect(summary.body.task_prefixes[0]).toMatchObject({ n_groups: 50, n_tasks: 150, compute_seconds: 25 });
    // Groups of a computation never reported have nothing to belong to.
    const orphan = await clusterCall(w.token).post('/api/v2/analytics/metrics', {
      ident: scheduler(w.cluster),
      task_groups: [{ name: 'x-1', prefix: 'x', computation: 'never-reported' }],
    });
    expect(orphan.body.task_groups).toBe(0);
  });

  it('keeps spans posted by clients and by the cluster, and the newest profile', async () => {
    const w = await world();
    const as = clusterCall(w.token);
    const url = `${w.base}/cluster/${w.cluster.id}/span/load-data`;
    const started = await w.asMember.post(url, {
      name: 'load data',
      start: T0,
      callstack: [{ filename: 'etl.py', line: 3 }],
      user_field: 1,
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      identifier: 'load-data',
      name: 'load data',
      stop: null,
      duration: null,
      data: { user_field: 1 },
    });
    const stopped = await w.asMember.post(url, { stop: '2026-05-28T20:26:50+00:00' });
    expect(stopped.body).toMatchObject({
      name: 'load data',
      start: '2026-05-28T20:26:40.000000+00:00',
      duration: 10,
      data: { user_field: 1 },
    });
    expect(stopped.body.callstack).toEqual([{ filename: 'etl.py', line: 3 }]);
    expect(
      (
        await as.post('/api/v2/analytics/span/from-cluster', {
          start: T0 + 20,
          stop: T0 + 21,
          ident: 'Scheduler-x',
        })
      ).status,
    ).toBe(200);
    const spans = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}/spans`);
    expect(spans.body.map((s: any) => [s.identifier, s.scheduler_id, s.duration])).toEqual([
      ['from-cluster', 'Scheduler-x', 1],
      ['load-data', null, 10],
    ]);
    expect((await w.asMember.post(url, { start: 'yesterday' })).status).toBe(400);
    expect((await ts.api.as(w.outsider.key).post(url, { start: T0 })).status).toBe(404);

    const profile = { count: 3, identifier: 'root', description: {}, children: {} };
    expect(
      (await as.post('/api/v2/analytics/profile', { ident: 'Scheduler-x', n_workers: 2, profile })).status,
    ).toBe(200);
    const overview = await w.asMember.get(`${w.base}/cluster/${w.cluster.id}`);
    expect(overview.body.last_profile).toMatchObject({ scheduler_id: 'Scheduler-x', n_workers: 2, profile });
    expect(overview.body.n_spans).toBe(2);
  });

  it('serves the analytics preload to the cluster', async () => {
    const w = await world();
    const res = await clusterCall(w.token).get('/api/v2/analytics/preload');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/x-python/);
    expect(res.text).toMatch(/def dask_setup\(scheduler\b/);
    expect((await w.asMember.get('/api/v2/analytics/preload')).status).toBe(401);
  });
});

// Host metrics: what each instance's agent samples of its machine (analytics/metrics with `host`),
// kept for a while, and read back through the metrics series call, averaged per step.

/** world(), with the cluster's instance and its metrics series call. */
async function hostWorld() {
  const w = await world();
  const [instance] = await ts.server.deps.db
    .select()
    .from(instances)
    .where(eq(instances.clusterId, w.cluster.id));
  return {
    ...w,
    instance: instance!,
    series: `/api/v2/metrics/account/${w.workspace.slug}/cluster/${w.cluster.id}`,
  };
}

const post = (token: string, body: unknown) => clusterCall(token).post('/api/v2/analytics/metrics', body);

const sample = (time: number, cpu: number) => ({
  time,
  cpu,
  memory_used: 2e9,
  memory_total: 8e9,
  net_rx: 1000,
  net_tx: 500,
  disk_read: 0,
  disk_write: 4096,
});

describe('host metrics', () => {
  it('keeps what an agent sends and serves it per instance, averaged per step over long ranges', async () => {
    const w = await hostWorld();
    const now = Math.floor(Date.now() / 1000);
    // An hour of 5-second samples: 10% busy for the first half, 50% for the second.
    const samples = Array.from({ length: 720 }, (_, k) => sample(now - 3600 + k * 5, k < 360 ? 10 : 50));
    const sent = await post(w.token, { host: { backend_id: w.instance.backendId, samples } });
    expect(sent.status).toBe(200);
    expect(sent.body.host_samples).toBe(720);

    const cpu = await ts.api.as(w.member.key).get(`${w.series}?query=cpu&start=${now - 3600}&end=${now}`);
    expect(cpu.status).toBe(200);
    const [line] = cpu.body.series;
    expect(line.metric).toMatchObject({ name: 'cpu', instance: w.instance.name, role: 'worker' });
    // 720 samples come back as 15-second buckets: 240 points, not 720.
    expect(cpu.body.step).toBe(15);
    expect(line.values.length).toBeLessThanOrEqual(241);
    expect(line.values.length).toBeGreaterThan(200);
    expect(line.values[0][1]).toBe(10);
    expect(line.values.at(-1)[1]).toBe(50);

    // A day: buckets of nearly 3 minutes, each the mean of its samples.
    const day = await ts.api.as(w.member.key).get(`${w.series}?query=cpu&start=${now - 86_400}&end=${now}`);
    expect(day.body.step).toBe(173);
    expect(day.body.series[0].values.length).toBeLessThanOrEqual(22);

    const network = await ts.api
      .as(w.member.key)
      .get(`${w.series}?query=network&start=${now - 3600}&end=${now}`);
    expect(network.body.series.map((s: { metric: { direction: string } }) => s.metric.direction)).toEqual([
      'receive',
      'send',
    ]);
    const memory = await ts.api
      .as(w.member.key)
      .get(`${w.series}?query=memory&start=${now - 3600}&end=${now}`);
    expect(memory.body.series[0].metric.total).toBe('8000000000');
    expect(memory.body.series[0].values[0][1]).toBe(2e9);

    // No GPU on this machine: no GPU series.
    const gpu = await ts.api.as(w.member.key).get(`${w.series}?query=gpu&start=${now - 3600}&end=${now}`);
    expect(gpu.body.series).toEqual([]);
  });

  it('keeps GPU samples when the agent found a GPU', async () => {
    const w = await hostWorld();
    const now = Math.floor(Date.now() / 1000);
    const gpuSample = { ...sample(now - 10, 5), gpu: 73, gpu_memory_used: 1e9, gpu_memory_total: 16e9 };
    expect(
      (await post(w.token, { host: { backend_id: w.instance.backendId, samples: [gpuSample] } })).status,
    ).toBe(200);
    const gpu = await ts.api.as(w.member.key).get(`${w.series}?query=gpu&start=${now - 60}&end=${now}`);
    expect(gpu.body.series[0].values[0][1]).toBe(73);
    const value = await ts.api
      .as(w.member.key)
      .get(`${w.series}/value?query=gpu_memory&over_time=max&start_ts=${now - 60}`);
    expect(value.status).toBe(200);
  });

  it('serves the scheduler’s Dask gauges: tasks by state, workers’ memory and CPU, bytes moved', async () => {
    const w = await hostWorld();
    const now = Math.floor(Date.now() / 1000);
    const report = (time: number, transferred: number) => ({
      ident: `Scheduler-${w.cluster.id}`,
      time,
      n_workers: 2,
      threads: 4,
      memory: 1000,
      n_tasks: 30,
      processing: 4,
      waiting: 20,
      in_memory: 6,
      worker_memory: 3e8,
      worker_cpu: 180,
      transferred,
      durations: [{ prefix: 'inc', action: 'compute', seconds: 2.5 }],
    });
    expect((await post(w.token, report(now - 30, 1_500_000))).status).toBe(200);
    const tasks = await ts.api.as(w.member.key).get(`${w.series}?query=tasks&start=${now - 60}&end=${now}`);
    const byState = Object.fromEntries(
      tasks.body.series.map((s: { metric: { state: string }; values: number[][] }) => [
        s.metric.state,
        s.values[0]![1],
      ]),
    );
    expect(byState).toEqual({ processing: 4, waiting: 20, memory: 6 });
    const moved = await ts.api
      .as(w.member.key)
      .get(`${w.series}?query=transferred&start=${now - 60}&end=${now}`);
    // 1.5 MB in a 15-second step: 100 kB/s.
    expect(moved.body.series[0].values[0][1]).toBe(100_000);
    const prefixes = await ts.api
      .as(w.member.key)
      .get(`${w.series}?query=task_seconds&start=${now - 60}&end=${now}`);
    expect(prefixes.body.series[0]).toMatchObject({ metric: { prefix: 'inc' } });
  });

  it('deletes samples older than the retention, and keeps the rest', async () => {
    const w = await hostWorld();
    const now = Math.floor(Date.now() / 1000);
    const old = sample(now - 20 * 86_400, 1);
    const fresh = sample(now - 5, 2);
    await post(w.token, { host: { backend_id: w.instance.backendId, samples: [old, fresh] } });
    await pruneHostMetrics(ts.server.deps.db, 14 * 86_400_000);
    const left = await ts.server.deps.db
      .select({ cpu: hostMetrics.cpu })
      .from(hostMetrics)
      .where(eq(hostMetrics.instanceId, w.instance.id));
    expect(left).toEqual([{ cpu: 2 }]);
  });

  it('takes samples only for an instance of the calling cluster, and shows them only to readers', async () => {
    const w = await hostWorld();
    const other = await hostWorld();
    const now = Math.floor(Date.now() / 1000);
    // Another cluster's token cannot write into this cluster's instance.
    const foreign = await post(other.token, {
      host: { backend_id: w.instance.backendId, samples: [sample(now, 1)] },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Instance not found.');
    // A report must say which scheduler it is from, unless it only carries host samples.
    const bare = await post(w.token, { n_workers: 1 });
    expect(bare.status).toBe(400);
    expect(
      (await ts.api.post('/api/v2/analytics/metrics', { host: { backend_id: 'x', samples: [] } })).status,
    ).toBe(401);
    expect((await ts.api.as(w.outsider.key).get(`${w.series}?query=cpu`)).status).toBe(404);
    expect((await ts.api.get(`${w.series}?query=cpu`)).status).toBe(401);
  });
});
