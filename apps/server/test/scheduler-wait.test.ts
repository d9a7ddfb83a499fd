import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterWaits } from '../src/domains/clusters/cluster-waits.js';
import { createUser } from './helpers/factories.js';
import { type RunningCluster, seedStartingScheduler } from './helpers/running-cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const BOOTSTRAP = '/api/v2/cluster_facing/bootstrap';
const SCHEDULER_REPORT = '/api/v2/cluster_facing/scheduler/phone-home/instance';

/**
 * A worker's agent waits for its scheduler's address in held bootstraps (`?wait_for_scheduler=`):
 * the answer comes when the scheduler reports, not at the agent's next look.
 */
describe('a worker waiting for its scheduler', () => {
  let ts: TestServer;
  let userId: number;
  let closed = false;
  beforeAll(async () => {
    // Heartbeats every 10 s: a bootstrap is held up to 5 s.
    ts = await startTestServer({ CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '10' });
    userId = (await createUser(ts)).id;
  });
  afterAll(async () => {
    if (!closed) await ts?.close();
  });

  /** A seeded cluster whose scheduler has not reported yet: its worker's bootstrap can be answered. */
  async function startingCluster(): Promise<RunningCluster & { scheduler: string }> {
    const { db, secrets } = ts.server.deps;
    return seedStartingScheduler(db, secrets, userId, 'starting');
  }

  const ask = (cluster: RunningCluster, wait?: number) =>
    ts.api.as(cluster.token).get(BOOTSTRAP, {
      query: { backend_id: cluster.backendId, ...(wait === undefined ? {} : { wait_for_scheduler: wait }) },
    });

  it('holds the answer until the scheduler reports its address, then answers with it', async () => {
    const cluster = await startingCluster();
    expect((await ask(cluster)).body.scheduler_address).toBeNull();

    let reported = false;
    const held = ask(cluster, 5).then((answer) => ({ answer, reported }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const report = await ts.api.as(cluster.token).patch(SCHEDULER_REPORT, {
      backend_id: cluster.scheduler,
      state: 'started',
      address: 'tls://10.0.0.5:8786',
    });
    expect([report.status, report.body]).toEqual([200, { ok: true }]);
    reported = true;
    const { answer, reported: afterReport } = await held;
    expect(answer.status).toBe(200);
    expect(afterReport).toBe(true);
    expect(answer.body.scheduler_address).toBe('tls://10.0.0.5:8786');
    expect(answer.body.role).toBe('worker');
  });

  it('answers without an address once the wait is over, and at once when the address is known', async () => {
    const cluster = await startingCluster();
    const began = Date.now();
    const answer = await ask(cluster, 0.6);
    expect(answer.status).toBe(200);
    expect(answer.body.scheduler_address).toBeNull();
    expect(Date.now() - began).toBeGreaterThanOrEqual(550);

    await ts.api.as(cluster.token).patch(SCHEDULER_REPORT, {
      backend_id: cluster.scheduler,
      state: 'started',
      address: 'tls://10.0.0.6:8786',
    });
    expect((await ask(cluster, 5)).body.scheduler_address).toBe('tls://10.0.0.6:8786');
  });

  it('refuses a wait it would not keep', async () => {
    const cluster = await startingCluster();
    const answer = await ask(cluster, 60);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('wait_for_scheduler');
  });

  // Last: it closes the server.
  it('answers a held bootstrap when the server closes', async () => {
    const cluster = await startingCluster();
    const held = ask(cluster, 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const began = Date.now();
    closed = true;
    const [answer] = await Promise.all([held, ts.close()]);
    // Well before the 5 s it asked for: a closing server holds nobody.
    expect(Date.now() - began).toBeLessThan(4000);
    expect(answer.status).toBe(200);
    expect(answer.body.scheduler_address).toBeNull();
  });
});

describe('ClusterWaits', () => {
  const never = async () => null;

  it('lets go of a wait whose caller went away', async () => {
    const waits = new ClusterWaits();
    const gone = new AbortController();
    const waiting = waits.until(1, 10_000, never, gone.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waits.held).toBe(1);
    gone.abort();
    expect(await waiting).toBeNull();
    expect(waits.held).toBe(0);
  });

  it('looks again at once when woken while it looked (the wake is not lost)', async () => {
    // No recheck within the test: only the wake that came during the first look ends the wait.
    const waits = new ClusterWaits(60_000);
    let looks = 0;
    const look = async () => {
      looks += 1;
      if (looks === 1) {
        waits.wake(1);
        return null;
      }
      return 'found';
    };
    const began = Date.now();
    expect(await waits.until(1, 60_000, look, new AbortController().signal)).toBe('found');
    expect(Date.now() - began).toBeLessThan(5000);
    expect(looks).toBe(2);
    expect(waits.held).toBe(0);
  });

  it('looks again when woken for its cluster only', async () => {
    // No look of its own meanwhile: only the wake can end the first wait before the test's timeout.
    const waits = new ClusterWaits(60_000);
    let address: string | null = null;
    const looks = { 1: 0, 2: 0 };
    const look = (id: 1 | 2) => async () => {
      looks[id] += 1;
      return id === 1 ? address : null;
    };
    const signal = new AbortController().signal;
    const first = waits.until(1, 60_000, look(1), signal);
    const second = waits.until(2, 300, look(2), signal);
    const third = waits.until(2, 60_000, look(2), signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    address = 'tls://10.0.0.7:8786';
    waits.wake(1);
    expect(await first).toBe('tls://10.0.0.7:8786');
    expect(looks[1]).toBe(2);
    expect(await second).toBeNull();
    expect(waits.held).toBe(1);
    waits.close();
    expect(await third).toBeNull();
    expect(waits.held).toBe(0);
  });
});
