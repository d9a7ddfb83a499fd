import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchJobs, clusters, runTasks } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { createReadyCluster, useClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

/**
 * What a running cluster's machines are and say: instance specs, the SSH key with real
 * addresses, the cluster-facing calls its instances make, and metrics from its heartbeats,
 * states and logs. One real cluster (a scheduler and a worker) serves every test of this file.
 */
const c = useClusterServer();
let details: any;
let asCluster: Api;

beforeAll(async () => {
  details = await createReadyCluster(c.api, c.slug, {
    name: 'machines',
    workers: 1,
    worker_options: { nthreads: 2, memory_limit: '1 GiB' },
    worker_instance_types: ['local'],
    scheduler_options: { idle_timeout: '1 hour' },
    custom_subdomain: 'machines-dash',
  });
  const [row] = await c.ts.server.deps.db.select().from(clusters).where(eq(clusters.id, details.id));
  asCluster = c.ts.api.as(c.ts.server.deps.secrets.decrypt(row!.tokenBox));
}, 180_000);

const worker = () => details.workers[0];
const facing = '/api/v2/cluster_facing';

describe('instance specs', () => {
  it("lists the machines of the workspace's clusters as the local backend knows them", async () => {
    const list = await c.api.get(`/api/v2/instance_specs/account/${c.slug}/`);
    expect(list.status).toBe(200);
    const mine = list.body.items.filter((s: any) => s.cluster_id === details.id);
    expect(mine.map((s: any) => s.role).sort()).toEqual(['scheduler', 'worker']);
    const spec = mine.find((s: any) => s.role === 'worker');
    expect(spec).toMatchObject({
      cluster_name: 'machines',
      backend_type: 'in_process',
      instance_type: 'local',
      requested_instance_types: ['local'],
      // A local worker's machine is what it asked for: its threads and its memory limit.
      cores: 2,
      memory_mib: 1024,
      gpus: 0,
      arch: process.arch === 'arm64' ? 'aarch64' : 'x86_64',
      dask_threads: 2,
      dask_memory_limit: '1 GiB',
    });
    const one = await c.api.get(`/api/v2/instance_specs/account/${c.slug}/id/${spec.id}`);
    expect(one.body).toEqual(spec);
    const paged = await c.api.get(`/api/v2/instance_specs/account/${c.slug}/`, { query: { limit: 1 } });
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.count).toBe(list.body.count);

    const stranger = c.ts.api.as((await createUser(c.ts)).key);
    expect((await stranger.get(`/api/v2/instance_specs/account/${c.slug}/id/${spec.id}`)).status).toBe(404);
  });
});

describe('ssh-key on a running cluster', () => {
  it("answers the scheduler's and a worker's real addresses", async () => {
    const url = `/api/v2/clusters/account/${c.slug}/id/${details.id}/ssh-key`;
    const answer = await c.api.get(url, { query: { worker: worker().name } });
    expect(answer.body).toMatchObject({
      scheduler_private_address: details.scheduler.instance.private_ip_address,
      scheduler_address_to_use: details.scheduler.instance.private_ip_address,
      scheduler_state: 'ready',
      worker_address: worker().instance.private_ip_address,
      ssh_available: false,
    });
    expect(answer.body.scheduler_hostname).toBe(
      new URL(details.scheduler_address.replace('tls:', 'http:')).hostname,
    );
    expect(answer.body.public_key).toBe(
      `${answer.body.public_key.split(' ').slice(0, 2).join(' ')} cumulus-machines`,
    );
  });
});

describe('cluster-facing calls', () => {
  it('answers worker addresses, the dashboard certificate, kept files and the cloud preloads', async () => {
    const ips = await asCluster.get(`${facing}/worker-ips`);
    expect(ips.body.workers).toEqual([
      expect.objectContaining({
        name: worker().name,
        state: 'started',
        private_ip_address: worker().instance.private_ip_address,
      }),
    ]);
    expect(ips.body.ips).toEqual([worker().instance.private_ip_address]);

    const cert = await asCluster.get(`${facing}/scheduler/dashboard/cert`);
    expect(cert.body).toEqual({
      cert: details.cluster_options.tls_cert,
      key: details.cluster_options.tls_key,
      ca: details.cluster_options.tls_cert,
      self_signed: true,
      subdomain: 'machines-dash',
    });

    expect((await asCluster.get(`${facing}/db-file-ref/nothing`)).status).toBe(404);

    // What each preload does where it runs: the spot ones watch their cloud's notice (EC2's
    // interruption notice, Compute Engine's preemption flag); AWS's takes the client's credentials.
    const says = {
      'aws-creds-loader': 'cumulus: aws-creds-loader preload:',
      'aws-spot': 'cumulus: aws-spot preload: watching',
      'gcp-spot': 'cumulus: gcp-spot preload: watching',
    };
    for (const [name, words] of Object.entries(says)) {
      const preload = await asCluster.get(`${facing}/preload/${name}`);
      expect(preload.status).toBe(200);
      expect(preload.headers['content-type']).toMatch(/^text\/x-python/);
      expect(preload.text).toContain('async def dask_setup(');
      expect(preload.text).toContain(words);
    }
    expect((await c.api.get(`${facing}/worker-ips`)).status).toBe(401);
  });

  it('hands run tasks to instances of the right role, once, and records their states', async () => {
    const { db } = c.ts.server.deps;
    const [forScheduler, first, second] = await db
      .insert(runTasks)
      .values([
        { clusterId: details.id, command: 'hostname', runOn: 'scheduler' },
        { clusterId: details.id, command: 'echo one', env: { N: '1' }, arrayTaskId: 1 },
        { clusterId: details.id, command: 'echo two', arrayTaskId: 2 },
      ])
      .returning();
    const workerId = (await db.query.instances.findFirst({
      where: (i, { eq }) => eq(i.id, worker().instance.id),
    }))!.backendId;
    const schedulerId = (await db.query.instances.findFirst({
      where: (i, { eq }) => eq(i.id, details.scheduler.instance.id),
    }))!.backendId;

    const claimed = await asCluster.get(`${facing}/pending-run-task/${workerId}`);
    expect(claimed.body.task).toMatchObject({
      id: first!.id,
      command: 'echo one',
      env: { N: '1' },
      state: 'assigned',
      assigned_to: { instance_id: worker().instance.id, backend_id: workerId },
    });
    // Asking again answers the task it holds, not a second one.
    expect((await asCluster.get(`${facing}/pending-run-task/${workerId}`)).body.task.id).toBe(first!.id);
    expect(
      (await asCluster.get(`${facing}/pending-run-tasks/${workerId}`)).body.tasks.map((t: any) => t.id),
    ).toEqual([first!.id]);
    const onScheduler = await asCluster.get(`${facing}/pending-run-task/${schedulerId}`);
    expect(onScheduler.body.task.id).toBe(forScheduler!.id);

    const running = await asCluster.post(`${facing}/run-task/${first!.id}`, {
      state: 'running',
      backend_id: workerId,
    });
    expect(running.body).toMatchObject({ state: 'running', stop: null });
    expect(running.body.start).toMatch(/\+00:00$/);
    const done = await asCluster.post(`${facing}/run-task/${first!.id}`, { state: 'done', exit_code: 0 });
    expect(done.body).toMatchObject({ state: 'done', exit_code: 0 });
    expect(done.body.stop).toMatch(/\+00:00$/);
    // A finished task cannot change its outcome; a `running` report of it hears to stop it.
    const again = await asCluster.post(`${facing}/run-task/${first!.id}`, { state: 'error' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('RUN_TASK_FINISHED');
    const stillRunning = await asCluster.post(`${facing}/run-task/${first!.id}`, { state: 'running' });
    expect(stillRunning.body).toMatchObject({ state: 'done', stop_task: true });
    const taken = await asCluster.post(`${facing}/run-task/${forScheduler!.id}`, {
      state: 'running',
      backend_id: workerId,
    });
    expect(taken.status).toBe(409);

    expect((await asCluster.get(`${facing}/pending-run-task/${workerId}`)).body.task.id).toBe(second!.id);
    const failed = await asCluster.post(`${facing}/run-task/${second!.id}`, {
      state: 'error',
      exit_code: 3,
      reason: 'exit 3',
    });
    expect(failed.body).toMatchObject({ state: 'error', exit_code: 3, reason: 'exit 3' });
    expect((await asCluster.get(`${facing}/pending-run-task/${workerId}`)).body.task).toBeNull();
    expect((await asCluster.post(`${facing}/run-task/999999999`, { state: 'done' })).status).toBe(404);
  });

  it('ends a task and claims the next, already running, in one call', async () => {
    const { db } = c.ts.server.deps;
    const [one, two] = await db
      .insert(runTasks)
      .values([
        { clusterId: details.id, command: 'echo a', arrayTaskId: 10 },
        { clusterId: details.id, command: 'echo b', arrayTaskId: 11 },
      ])
      .returning();
    const workerId = (await db.query.instances.findFirst({
      where: (i, { eq }) => eq(i.id, worker().instance.id),
    }))!.backendId;
    const next = (report: unknown) => asCluster.post(`${facing}/next-run-task/${workerId}`, { report });

    const first = await next(null);
    expect(first.body.report).toBeNull();
    expect(first.body.task).toMatchObject({ id: one!.id, command: 'echo a', state: 'running' });
    expect(first.body.task.start).toMatch(/\+00:00$/);
    const second = await next({ task_id: one!.id, state: 'error', exit_code: 2, reason: 'exit 2' });
    expect(second.body.report).toMatchObject({ id: one!.id, state: 'error', exit_code: 2, reason: 'exit 2' });
    expect(second.body.task).toMatchObject({ id: two!.id, state: 'running' });
    // A report of a task that ended already is refused, and the claim still answers: with the
    // task running on this instance, which asks for its next one only when it runs none (it never
    // heard the answer that claimed it: the request failed after the commit), that task again.
    const third = await next({ task_id: one!.id, state: 'done' });
    expect(third.body).toMatchObject({ report: null, task: { id: two!.id, state: 'running' } });
    const last = await next({ task_id: two!.id, state: 'done', exit_code: 0 });
    expect(last.body).toMatchObject({ report: { id: two!.id, state: 'done' }, task: null });
    const rows = await db.query.runTasks.findMany({
      where: (t, { inArray }) => inArray(t.id, [one!.id, two!.id]),
    });
    expect(rows.map((t) => [t.id, t.state, t.exitCode])).toEqual([
      [one!.id, 'error', 2],
      [two!.id, 'done', 0],
    ]);
    expect((await asCluster.post(`${facing}/next-run-task/nobody`, { report: null })).status).toBe(404);
  });

  it("keeps a job's %N limit when its instances claim at once, by either call", async () => {
    const { db } = c.ts.server.deps;
    const [job] = await db
      .insert(batchJobs)
      .values({
        workspaceId: (await db.query.clusters.findFirst({ where: (k, { eq }) => eq(k.id, details.id) }))!
          .workspaceId,
        clusterId: null, // its end would stop this file's cluster
        userCommand: 'echo limited',
        nTasks: 4,
        maxConcurrent: 1,
        reconcileAt: null, // the job loop leaves it alone
      })
      .returning();
    const tasks = await db
      .insert(runTasks)
      .values(
        [1, 2, 3, 4].map((n) => ({
          clusterId: details.id,
          batchJobId: job!.id,
          command: 'echo',
          arrayTaskId: n,
        })),
      )
      .returning();
    const ids = (
      await db.query.instances.findMany({ where: (i, { eq }) => eq(i.clusterId, details.id) })
    ).map((i) => i.backendId);
    // Both instances, each by both calls, four times at once: one task of the job is claimed.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        ids.flatMap((id) => [
          asCluster.post(`${facing}/next-run-task/${id}`, { report: null }),
          asCluster.get(`${facing}/pending-run-task/${id}`),
        ]),
      ).flat(),
    );
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    const busy = await db.query.runTasks.findMany({
      where: (t, { and, eq, inArray }) =>
        and(eq(t.batchJobId, job!.id), inArray(t.state, ['assigned', 'running'])),
    });
    expect(busy).toHaveLength(1);
    const holder = answers.find((a) => a.body.task?.id === busy[0]!.id)!;
    expect(holder).toBeDefined();
    // Its end frees the place: the next claim takes the job's next task.
    const instance = busy[0]!.instanceId!;
    const backend = (await db.query.instances.findFirst({ where: (i, { eq }) => eq(i.id, instance) }))!
      .backendId;
    const next = await asCluster.post(`${facing}/next-run-task/${backend}`, {
      report: { task_id: busy[0]!.id, state: 'done', exit_code: 0 },
    });
    expect(next.body.report).toMatchObject({ id: busy[0]!.id, state: 'done' });
    expect(next.body.task).toMatchObject({ batch_job_id: job!.id, state: 'running' });
    await db.delete(runTasks).where(
      inArray(
        runTasks.id,
        tasks.map((t) => t.id),
      ),
    );
  });
});

describe('metrics', () => {
  const base = () => `/api/v2/metrics/account/${c.slug}`;

  it('answers worker and instance counts, log rates and heartbeat ages from what the control plane recorded', async () => {
    const workers = await c.api.get(`${base()}/cluster/${details.id}`, { query: { query: 'workers' } });
    expect(workers.status).toBe(200);
    expect(workers.body).toMatchObject({ query: 'workers', unit: 'workers' });
    expect(workers.body.series).toHaveLength(1);
    expect(workers.body.series[0].values.at(-1)[1]).toBe(1);
    expect(workers.body.series[0].values[0][1]).toBe(0);

    const machines = await c.api.get(`${base()}/cluster/${details.id}`, { query: { query: 'instances' } });
    const byRole = Object.fromEntries(
      machines.body.series.map((s: any) => [s.metric.role, s.values.at(-1)[1]]),
    );
    expect(byRole).toEqual({ scheduler: 1, worker: 1 });

    const lines = await c.api.get(`${base()}/cluster/${details.id}`, {
      query: { query: 'log_lines', scheduler: 'true', start: Math.floor(Date.parse(details.created) / 1000) },
    });
    expect(lines.body.series).toHaveLength(1);
    expect(lines.body.series[0].metric).toMatchObject({
      role: 'scheduler',
      instance_id: String(details.scheduler.instance.id),
    });
    expect(lines.body.series[0].values.some(([, v]: [number, number]) => v > 0)).toBe(true);

    const ages = await c.api.get(`${base()}/cluster/${details.id}`, {
      query: { query: 'heartbeat_age', instance_ids: String(worker().instance.id) },
    });
    expect(ages.body.series.map((s: any) => s.metric.instance)).toEqual([worker().instance.name]);
    expect(ages.body.series[0].values[0][1]).toBeLessThan(60);

    const peak = await c.api.get(`${base()}/cluster/${details.id}/value`, {
      query: { query: 'workers', over_time: 'max' },
    });
    expect(peak.body).toMatchObject({ query: 'workers', over_time: 'max', value: 1, unit: 'workers' });
    const least = await c.api.get(`${base()}/cluster/${details.id}/value`, {
      query: { query: 'workers', over_time: 'min' },
    });
    expect(least.body.value).toBe(0);
    // A query the catalogue does not name is refused (cpu, memory... are host metrics now).
    expect(
      (await c.api.get(`${base()}/cluster/${details.id}`, { query: { query: 'flux_capacitor' } })).status,
    ).toBe(400);

    const adhoc = await c.api.get(`${base()}/adhoc`, {
      query: {
        name: 'peak workers',
        query: 'workers',
        over_time: 'max',
        clusters: String(details.id),
        set_tags: 1,
      },
    });
    expect(adhoc.body).toMatchObject({ name: 'peak workers', unit: 'workers' });
    expect(adhoc.body.items).toEqual([
      { cluster_id: details.id, cluster_name: 'machines', value: 1, tags: {} },
    ]);
  });

  it('summarises the cluster and debugs its control loop state', async () => {
    const debug = await c.api.get(`${base()}/cluster/${details.id}/debug-stuff`, { query: { set_tags: 1 } });
    expect(debug.body).toMatchObject({
      cluster_id: details.id,
      state: 'ready',
      desired_state: 'ready',
      tags: {},
    });
    expect(debug.body.processes).toEqual({ 'scheduler:started': 1, 'worker:started': 1 });
    expect(debug.body.instances.map((i: any) => i.role).sort()).toEqual(['scheduler', 'worker']);
    expect(debug.body.instances.every((i: any) => i.heartbeat_age_seconds < 60)).toBe(true);
    expect(debug.body.log_lines.system).toBeGreaterThan(0);
    expect(debug.body.state_changes).toBeGreaterThan(5);

    const summary = await c.api.get(`${base()}/id/${details.id}/summary-metrics`);
    expect(summary.body).toMatchObject({
      cluster_id: details.id,
      state: 'ready',
      desired_workers: 1,
      started_workers: 1,
      peak_workers: 1,
      running_instances: 2,
      total_instances: 2,
      failed_processes: 0,
    });
    expect(summary.body.log_lines).toBeGreaterThan(0);
    expect(summary.body.instance_seconds).toBeGreaterThan(0);
  });

  it('answers the series without credentials only through the signed link', async () => {
    const summary = await c.api.get(`${base()}/id/${details.id}/summary-metrics`);
    const link = new URL(summary.body.metrics_url);
    expect(link.origin).toBe(c.ts.url);
    const query = Object.fromEntries(link.searchParams);
    const signed = await c.ts.api.get(link.pathname, { query: { ...query, query: 'workers' } });
    expect(signed.status).toBe(200);
    expect(signed.body.series[0].values.at(-1)[1]).toBe(1);

    expect((await c.ts.api.get(link.pathname)).status).toBe(401);
    const forged = await c.ts.api.get(link.pathname, {
      query: { ...query, expires: Number(query.expires) + 1 },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('INVALID_SIGNATURE');
    const [, , , , , slug] = link.pathname.split('/');
    const other = await c.ts.api.get(`/api/v2/metrics/account/${slug}/cluster/${details.id + 1}`, { query });
    expect(other.status).toBe(401);
  });
});

describe('stopping', () => {
  it('leaves nothing running', async () => {
    await c.api.delete(`/api/v2/clusters/account/${c.slug}/id/${details.id}`);
    await waitFor('the cluster stopped', async () => {
      const res = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${details.id}`);
      return res.body.current_state.state === 'stopped';
    });
  }, 120_000);
});
