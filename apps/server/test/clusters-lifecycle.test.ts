import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONNECT_AND_SUM,
  instanceProcesses,
  runPython,
  useClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';

const c = useClusterServer();

describe('a cluster on real Dask', () => {
  it('starts a scheduler and two workers that a distributed.Client reaches over mutual TLS, then stops them all', async () => {
    const api = c.api;
    const created = await api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'lifecycle',
      workers: 2,
      scheduler_options: { idle_timeout: '1 hour' },
      tags: { team: 'tests' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), existing: false });
    const id = created.body.id;

    const again = await api.post(`/api/v2/clusters/account/${c.slug}/`, { name: 'lifecycle', workers: 2 });
    expect(again.body).toEqual({ id, existing: true });

    const details = await waitForClusterState(api, c.slug, id, 'ready');
    expect(details.scheduler.current_state.state).toBe('started');
    expect(details.workers.filter((w: any) => w.current_state.state === 'started')).toHaveLength(2);
    for (const w of details.workers) expect(w.name).toMatch(/^lifecycle-worker-[0-9a-f]+$/);
    expect(details.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(details.cluster_options.tls_cert).toContain('BEGIN CERTIFICATE');
    expect(details.scheduler.dashboard_address).toBeNull();
    expect(details.scheduler.instance.last_heartbeat).toMatch(/^\d{4}-\d\d-\d\dT.*\+00:00$/);
    expect(details.scheduler_port).toBeGreaterThan(0);

    const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-client-'));
    try {
      const file = path.join(dir, 'details.json');
      writeFileSync(file, JSON.stringify(details));
      const result = JSON.parse(await runPython(CONNECT_AND_SUM, [file]));
      expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });
      // Without the cluster's certificate the scheduler refuses the connection.
      await expect(
        runPython(
          `from distributed import Client\nClient("tcp://${details.scheduler.instance.private_ip_address}:${details.scheduler_port}", timeout=5)`,
          [],
          60_000,
        ),
      ).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const states = await api.get(`/api/v2/clusters/account/${c.slug}/id/${id}/states`);
    expect(Object.keys(states.body).sort()).toEqual(
      ['cluster', 'cluster_infra', 'scheduler', 'scheduler_instance', 'worker', 'worker_instance'].sort(),
    );
    expect(states.body.cluster.map((r: any) => r.state)).toEqual(['pending', 'starting', 'ready']);

    const stopped = await api.delete(`/api/v2/clusters/account/${c.slug}/id/${id}`, {
      query: { reason: 'done testing' },
    });
    expect(stopped.status).toBe(200);
    expect(stopped.body.current_state).toMatchObject({ state: 'stopping', reason: 'done testing' });
    const final = await waitForClusterState(api, c.slug, id, 'stopped');
    expect(final.current_state.reason).toBe('done testing');
    // The history has each state once, in order, up to the one the details answer.
    const history = await api.get(`/api/v2/clusters/account/${c.slug}/id/${id}/states`);
    expect(history.body.cluster.map((r: any) => r.state)).toEqual([
      'pending',
      'starting',
      'ready',
      'stopping',
      'stopped',
    ]);
    await waitFor(
      'no instance process left',
      async () => (await instanceProcesses(c.ts)).length === 0,
      30_000,
    );
  }, 240_000);
});
