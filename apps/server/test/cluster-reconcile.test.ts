import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Backend, final, retryable, singleBackend } from '../src/compute/backend.js';
import { createLocalBackend } from '../src/compute/local.js';
import { CLUSTER_STATES } from '../src/db/schema/index.js';
import { stepFor } from '../src/domains/clusters/reconcile/index.js';
import {
  createReadyCluster,
  instanceProcesses,
  PYTHON,
  startClusterServer,
  testSandbox,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

describe('the cluster reconciler dispatches on (current, desired) state', () => {
  it('runs the step that moves each pair towards what is wanted', () => {
    const step = (desiredState: 'ready' | 'stopped' | 'paused', state: (typeof CLUSTER_STATES)[number]) =>
      stepFor({ desiredState, state }).name;
    expect(step('ready', 'pending')).toBe('provision');
    expect(step('ready', 'paused')).toBe('resume');
    for (const state of ['starting', 'scaling', 'ready'] as const)
      expect(step('ready', state)).toBe('converge');
    // A stop under way finishes first; nothing is left to do for an ended cluster.
    expect(step('ready', 'stopping')).toBe('stop');
    expect(step('ready', 'pausing')).toBe('stop');
    expect(step('ready', 'stopped')).toBe('settled');
    expect(step('ready', 'error')).toBe('settled');
    // Whatever it is, a cluster asked to stop or pause (or failed) is stopped until the backend confirms it.
    for (const state of CLUSTER_STATES) {
      expect(step('stopped', state)).toBe('stop');
      expect(step('paused', state)).toBe('stop');
    }
  });
});

/** The local backend with faults a cloud would have, swapped in where the server takes its backends. */
function faultyLocalBackend() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-faulty-'));
  const local = createLocalBackend({
    python: PYTHON,
    dataDir,
    baseEnv: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stopGraceMs: 5_000,
    sandbox: testSandbox(dataDir),
  });
  const faults = {
    /** Launches of these roles fail with this error (a function: decided per call). */
    launch: undefined as ((role: string) => Error | undefined) | undefined,
    /** Stop returns at once and the instance goes away later, as a cloud VM's does. */
    slowStop: false,
    launches: 0,
    /**
     * Runs once when the reconciler next asks for a cluster's backend (it has read the cluster row,
     * not yet its machines): something the API does meanwhile.
     */
    duringLookup: undefined as (() => Promise<void>) | undefined,
  };
  const backend: Backend = {
    ...local,
    async launch(spec) {
      faults.launches++;
      const err = faults.launch?.(spec.role);
      if (err) throw err;
      return local.launch(spec);
    },
    async stop(instance) {
      if (!faults.slowStop) return local.stop(instance);
      setTimeout(() => void local.stop(instance), 3_000);
    },
  };
  return { backend, faults, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

describe('the cluster reconciler with a backend that fails', () => {
  const faulty = faultyLocalBackend();
  const single = singleBackend(faulty.backend);
  const server = startClusterServer(
    {},
    {
      backends: {
        ...single,
        async forCluster(cluster) {
          const during = faulty.faults.duringLookup;
          faulty.faults.duringLookup = undefined;
          await during?.();
          return single.forCluster(cluster);
        },
      },
    },
  );
  afterAll(async () => {
    await (await server).close();
    faulty.cleanup();
  });
  // A failed test must not leave its faults to the next.
  afterEach(() => {
    faulty.faults.launch = undefined;
    faulty.faults.slowStop = false;
    faulty.faults.duringLookup = undefined;
  });
  const asNewUser = async () => {
    const ts = await server;
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const slug = (await api.get('/api/v2/user/me')).body.default_account.slug as string;
    return { ts, api, slug };
  };

  it('backs off while launches fail for a retryable reason, shows why on the cluster, then starts it', async () => {
    const { api, slug } = await asNewUser();
    let failures = 0;
    faulty.faults.launch = () =>
      failures++ < 3 ? retryable('There is no capacity for local instances right now.') : undefined;
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'no-capacity', workers: 1 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const alert = await waitFor('the retry shown on the cluster', async () => {
      const alerts = await api.get(`/api/v2/clusters/account/${slug}/id/${id}/alerts`);
      return alerts.body.find((a: { title: string }) => a.title.startsWith('Cumulus is retrying'));
    });
    expect(alert.level).toBe(30);
    expect(alert.message).toContain('There is no capacity for local instances right now.');
    await waitForClusterState(api, slug, id, 'ready');
    const alerts = await api.get(`/api/v2/clusters/account/${slug}/id/${id}/alerts`);
    expect(alerts.body).toEqual([]);
    await api.delete(`/api/v2/clusters/account/${slug}/id/${id}`);
    await waitForClusterState(api, slug, id, 'stopped');
  }, 120_000);

  it('fails the cluster with the reason when workers cannot be launched for a final reason', async () => {
    const { ts, api, slug } = await asNewUser();
    faulty.faults.launch = (role) =>
      role === 'worker' ? final('Not authorized to run instances in this account.') : undefined;
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'forbidden', workers: 1 });
    const failed = await waitForClusterState(api, slug, created.body.id, 'error');
    expect(failed.current_state.reason).toBe(
      'Workers cannot be launched: Could not launch: Not authorized to run instances in this account.',
    );
    // The scheduler it had started is stopped too.
    await waitFor('no process left', async () => (await instanceProcesses(ts)).length === 0, 60_000);
  }, 120_000);

  it('keeps a worker added while it looks at the cluster: the desired count and the machines are read together', async () => {
    const { api, slug } = await asNewUser();
    const details = await createReadyCluster(api, slug, { name: 'scaled-meanwhile', workers: 1 });
    const id = details.id as number;
    // The reconciler has read the cluster (1 worker wanted), not yet its machines, when a scale to 2
    // lands; the worker it adds must not be retired as one too many.
    let added = '';
    faulty.faults.duringLookup = async () => {
      const answer = await api.post(`/api/v2/workers/account/${slug}/cluster/${id}/`, { n_workers: 1 });
      expect(answer.status).toBe(201);
      added = answer.body[0].name;
    };
    await waitFor('the scale to land mid-reconcile', async () => added !== '', 60_000);
    // The added worker ends up started (the old reading retired it before it ever launched).
    const workerState = async () => {
      const workers = await api.get(`/api/v2/workers/account/${slug}/cluster/${id}/`);
      return workers.body as { name: string; current_state: { state: string } }[];
    };
    const settled = await waitFor(
      'the added worker to start or end',
      async () => {
        const mine = (await workerState()).find((w) => w.name === added)?.current_state.state;
        return mine === 'started' || mine === 'stopped' || mine === 'error' ? mine : undefined;
      },
      60_000,
    );
    expect(settled).toBe('started');
    expect((await workerState()).filter((w) => w.current_state.state === 'started')).toHaveLength(2);
    await api.delete(`/api/v2/clusters/account/${slug}/id/${id}`);
    await waitForClusterState(api, slug, id, 'stopped');
  }, 120_000);

  it('shows a cluster stopped only once the backend confirms every instance gone', async () => {
    const { ts, api, slug } = await asNewUser();
    const details = await createReadyCluster(api, slug, { name: 'slow-stop', workers: 1 });
    faulty.faults.slowStop = true;
    await api.delete(`/api/v2/clusters/account/${slug}/id/${details.id}`);
    let runningWhenStopped: number | undefined;
    await waitFor('the cluster stopped', async () => {
      const res = await api.get(`/api/v2/clusters/account/${slug}/id/${details.id}`);
      if (res.body.current_state.state !== 'stopped') return false;
      runningWhenStopped = (await instanceProcesses(ts)).length;
      return true;
    });
    expect(runningWhenStopped).toBe(0);
    // Each transition once, in order.
    const states = await api.get(`/api/v2/clusters/account/${slug}/id/${details.id}/states`);
    expect(states.body.cluster.map((r: { state: string }) => r.state)).toEqual([
      'pending',
      'starting',
      'ready',
      'stopping',
      'stopped',
    ]);
  }, 120_000);
});
