import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instances } from '../src/db/schema/index.js';
import {
  createReadyCluster,
  daskPid,
  instanceProcesses,
  instanceRunning,
  useClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';

const c = useClusterServer({ CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '6' });

const workerInstances = async (clusterId: number) =>
  (await c.ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, clusterId))).filter(
    (i) => i.role === 'worker',
  );

describe('failures', () => {
  it('reports a killed worker with its exit and replaces it', async () => {
    const api = c.api;
    const details = await createReadyCluster(api, c.slug, { name: 'killed-worker', workers: 1 });
    const [victim] = await workerInstances(details.id);
    process.kill(await daskPid(victim!.backendId, 'dask_worker'), 'SIGKILL');

    const failed = await waitFor('the killed worker reported', async () => {
      const res = await api.get(`/api/v2/workers/account/${c.slug}/cluster/${details.id}/`);
      return res.body.find((w: any) => w.id === details.workers[0].id && w.current_state.state === 'error');
    });
    expect(failed.current_state.reason).toBe('dask-worker was killed by signal 9');
    const ready = await waitFor('a replacement worker', async () => {
      const res = await api.get(`/api/v2/clusters/account/${c.slug}/id/${details.id}`);
      const started = res.body.workers.filter((w: any) => w.current_state.state === 'started');
      return (
        res.body.current_state.state === 'ready' &&
        started.length === 1 &&
        started[0].id !== failed.id &&
        res.body
      );
    });
    expect(ready.workers).toHaveLength(2);
    const alerts = await api.get(`/api/v2/clusters/account/${c.slug}/id/${details.id}/alerts`);
    expect(alerts.body[0]).toMatchObject({ level: 40, message: 'dask-worker was killed by signal 9' });
    await waitFor('the failed instance gone', async () => !(await instanceRunning(c.ts, victim!)));

    await api.delete(`/api/v2/clusters/account/${c.slug}/id/${details.id}`);
    await waitForClusterState(api, c.slug, details.id, 'stopped');
  }, 240_000);

  it('marks an instance whose heartbeat stops `error` with a reason, and replaces its worker', async () => {
    const api = c.api;
    const details = await createReadyCluster(api, c.slug, { name: 'silent-worker', workers: 1 });
    const [victim] = await workerInstances(details.id);
    // Freeze the whole instance: agent and Dask stay alive but say nothing.
    const frozen = await instanceProcesses(c.ts);
    for (const p of frozen.filter((p) => p.backendId === victim!.backendId)) process.kill(p.pid, 'SIGSTOP');

    const silent = await waitFor('the silent instance marked error', async () => {
      const res = await api.get(`/api/v2/instances/${c.slug}/id/${victim!.id}`);
      return res.body.current_state.state === 'error' && res.body;
    });
    expect(silent.current_state.reason).toBe(`No heartbeat from instance ${victim!.name} for 6 seconds`);
    await waitForClusterState(api, c.slug, details.id, 'ready');
    // Stopping a frozen instance takes KILL after the grace period.
    await waitFor('the frozen instance gone', async () => !(await instanceRunning(c.ts, victim!)), 60_000);
    const states = await api.get(`/api/v2/clusters/account/${c.slug}/id/${details.id}/states`);
    expect(states.body.worker_instance.map((r: any) => r.state)).toContain('error');

    await api.delete(`/api/v2/clusters/account/${c.slug}/id/${details.id}`);
    await waitForClusterState(api, c.slug, details.id, 'stopped');
  }, 240_000);

  it('turns the cluster to `error` with a reason when its scheduler is killed, and stops the rest', async () => {
    const api = c.api;
    const details = await createReadyCluster(api, c.slug, { name: 'killed-scheduler', workers: 1 });
    const [scheduler] = (
      await c.ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, details.id))
    ).filter((i) => i.role === 'scheduler');
    process.kill(await daskPid(scheduler!.backendId, 'dask_scheduler'), 'SIGKILL');
    const failed = await waitForClusterState(api, c.slug, details.id, 'error');
    expect(failed.current_state.reason).toBe(
      `Scheduler ${details.scheduler.name} failed: dask-scheduler was killed by signal 9`,
    );
    const state = await api.get(`/api/v2/clusters/account/${c.slug}/id/${details.id}/state`);
    expect(state.body).toMatchObject({ state: 'error' });
    await waitFor(
      'every process of the cluster gone',
      async () => {
        const ids = new Set(
          (await c.ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, details.id))).map(
            (i) => i.backendId,
          ),
        );
        return (await instanceProcesses(c.ts)).every((p) => !ids.has(p.backendId));
      },
      60_000,
    );
  }, 240_000);
});
