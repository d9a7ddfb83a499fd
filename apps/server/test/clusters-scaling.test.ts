import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONNECT_AND_SUM,
  createReadyCluster,
  runPython,
  useClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';

const c = useClusterServer();

const startedWorkers = (details: any) =>
  details.workers.filter((w: any) => w.current_state.state === 'started');

describe('scaling, logs and analytics', () => {
  it('adds workers by count, retires them by name suffix, and ships every line as logs', async () => {
    const api = c.api;
    const details = await createReadyCluster(api, c.slug, { name: 'scaling', workers: 1 });
    const id = details.id;
    const workers = `/api/v2/workers/account/${c.slug}/cluster/${id}/`;

    const added = await api.post(workers, { n_workers: 2 });
    expect(added.status).toBe(201);
    expect(added.body.map((w: any) => w.name)).toEqual([
      expect.stringMatching(/^scaling-worker-[0-9a-f]+$/),
      expect.stringMatching(/^scaling-worker-[0-9a-f]+$/),
    ]);
    const three = await waitFor('three started workers', async () => {
      const res = await api.get(`/api/v2/clusters/account/${c.slug}/id/${id}`);
      return res.body.current_state.state === 'ready' && startedWorkers(res.body).length === 3 && res.body;
    });
    expect(three.desired_workers).toBe(3);

    const victim = added.body[0].name as string;
    const removed = await api.delete(workers, {
      query: { name: [victim.slice('scaling-worker'.length)], reason: 'too many' },
    });
    expect(removed.body).toEqual({ removed: [victim], desired_workers: 2 });
    const two = await waitFor('the named worker retired', async () => {
      const res = await api.get(`/api/v2/clusters/account/${c.slug}/id/${id}`);
      const gone = res.body.workers.find((w: any) => w.name === victim);
      return gone.current_state.state === 'stopped' && startedWorkers(res.body).length === 2 && res.body;
    });
    expect(two.workers.find((w: any) => w.name === victim).current_state.reason).toBe('too many');
    await waitForClusterState(api, c.slug, id, 'ready');

    const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-client-'));
    try {
      writeFileSync(path.join(dir, 'details.json'), JSON.stringify(two));
      expect(JSON.parse(await runPython(CONNECT_AND_SUM, [path.join(dir, 'details.json')]))).toMatchObject({
        workers: 2,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Logs: every instance's output, filtered as better-logs says.
    const logs = `/api/v2/clusters/account/${c.slug}/id/${id}/better-logs`;
    const all = await waitFor('the scheduler address in the logs', async () => {
      const res = await api.get(logs);
      return res.body.some((l: any) => l.message.includes('Scheduler at:')) && res.body;
    });
    expect(all[0]).toEqual({
      timestamp: expect.any(Number),
      instance_id: expect.any(Number),
      message: expect.any(String),
      instance: expect.any(String),
      source: expect.stringMatching(/^(dask|system)$/),
      task_id: null,
    });
    const times = all.map((l: any) => l.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const schedulerInstance = two.scheduler.instance.id;
    const mine = await api.get(logs, { query: { instance_ids: String(schedulerInstance) } });
    expect(mine.body.length).toBeGreaterThan(0);
    expect(mine.body.every((l: any) => l.instance_id === schedulerInstance)).toBe(true);
    const system = await api.get(logs, { query: { system: 'True' } });
    expect(system.body.length).toBeGreaterThan(0);
    expect(system.body.every((l: any) => l.message.startsWith('[cumulus-agent]'))).toBe(true);
    const dask = await api.get(logs, { query: { dask: 'True' } });
    expect(dask.body.length).toBeGreaterThan(0);
    expect(dask.body.some((l: any) => l.message.startsWith('[cumulus-agent]'))).toBe(false);
    const pattern = await api.get(logs, { query: { filter_pattern: 'scheduler at' } });
    expect(pattern.body.length).toBeGreaterThan(0);
    expect(pattern.body.every((l: any) => /scheduler at/i.test(l.message))).toBe(true);
    const t = pattern.body[0].timestamp;
    const window = await api.get(logs, { query: { since_ms: t, until_ms: t } });
    expect(window.body.map((l: any) => l.timestamp)).toEqual(window.body.map(() => t));
    expect(window.body.map((l: any) => l.message)).toContain(pattern.body[0].message);
    const limited = await api.get(logs, { query: { limit: 2 } });
    expect(limited.body).toEqual(all.slice(0, 2));

    const info = await api.get(`/api/v2/clusters/account/${c.slug}/id/${id}/log-info`);
    expect(info.body.line_count).toBeGreaterThanOrEqual(all.length);
    expect(info.body.instances.map((i: any) => i.role)).toContain('scheduler');
    const byName = await api.get(`/api/v2/instances/${c.slug}/instance/${two.scheduler.instance.name}/logs`);
    expect(byName.body.map((l: any) => l.message).join('\n')).toContain('Scheduler at:');

    // The scheduler preload registered with analytics.
    await waitFor('the scheduler registered', async () => {
      const res = await api.get(`/api/v2/analytics/${c.slug}/clusters/list`);
      return res.body.find((c: any) => c.id === id)?.scheduler_id?.startsWith('Scheduler-');
    });

    await api.delete(`/api/v2/clusters/account/${c.slug}/id/${id}`);
    await waitForClusterState(api, c.slug, id, 'stopped');
  }, 300_000);

  it('stops an idle cluster by itself, recording why', async () => {
    const api = c.api;
    const created = await api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'idle',
      workers: 0,
      scheduler_options: { idle_timeout: '3 seconds' },
    });
    // Waiting for `stopped` directly: on a loaded machine `ready` may last less than a poll.
    const stopped = await waitForClusterState(api, c.slug, created.body.id, 'stopped');
    expect(stopped.current_state.reason).toBe('Cluster idle for 3 seconds (idle_timeout)');
  }, 180_000);

  it('pauses an idle cluster made with pause_on_exit instead of stopping it', async () => {
    const api = c.api;
    const body = {
      name: 'idle-pauses',
      workers: 0,
      pause_on_exit: true,
      scheduler_options: { idle_timeout: '3 seconds' },
    };
    const created = await api.post(`/api/v2/clusters/account/${c.slug}/`, body);
    const paused = await waitForClusterState(api, c.slug, created.body.id, 'paused');
    expect(paused.current_state.reason).toBe('Cluster idle for 3 seconds (idle_timeout)');
    // Paused, not stopped: the name finds it among paused clusters (what a resume looks for).
    const found = await api.get(`/api/v2/clusters/account/${c.slug}/name/idle-pauses`, {
      query: { include_paused: 1 },
    });
    expect(found.body.id).toBe(created.body.id);

    // Creating it by name again resumes it: a new scheduler runs (the paused one is history, not
    // a failure), the cluster is ready again, then idles into a pause again.
    const resumedAt = new Date().toISOString();
    const again = await api.post(`/api/v2/clusters/account/${c.slug}/`, body);
    expect(again.body.id).toBe(created.body.id);
    await waitFor('the resumed cluster to be ready and pause again', async () => {
      const states = await api.get(`/api/v2/clusters/account/${c.slug}/id/${created.body.id}/states`, {
        query: { start_time: resumedAt },
      });
      const seen = (states.body.cluster as { state: string }[]).map((s) => s.state);
      expect(seen).not.toContain('error');
      if (!(seen.includes('ready') && seen.at(-1) === 'paused'))
        throw new Error(`states since the resume: ${JSON.stringify(seen)}`);
      return true;
    });
    const repaused = await api.get(`/api/v2/clusters/account/${c.slug}/id/${created.body.id}`);
    expect(repaused.body.current_state.reason).toBe('Cluster idle for 3 seconds (idle_timeout)');
  }, 240_000);

  it('stops a cluster whose last client has gone, once no_client_timeout has passed', async () => {
    const api = c.api;
    const details = await createReadyCluster(api, c.slug, {
      name: 'no-client',
      workers: 1,
      scheduler_options: { no_client_timeout: '2s' },
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-client-'));
    try {
      writeFileSync(path.join(dir, 'details.json'), JSON.stringify(details));
      await runPython(CONNECT_AND_SUM, [path.join(dir, 'details.json')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const stopped = await waitForClusterState(api, c.slug, details.id, 'stopped');
    expect(stopped.current_state.reason).toBe('No client connected for 2 seconds (no_client_timeout)');
  }, 180_000);
});
