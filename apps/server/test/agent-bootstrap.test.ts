import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterProcesses, instances } from '../src/db/schema/index.js';
import { createUser } from './helpers/factories.js';
import { seedStartingScheduler } from './helpers/running-cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const BOOTSTRAP = '/api/v2/cluster_facing/bootstrap';

/**
 * The agent's first bootstrap (`?started_at=`) is also its first reports and its preload fetches:
 * one call before Dask is spawned instead of three to five (issue 43).
 */
describe("an agent's first bootstrap", () => {
  let ts: TestServer;
  let userId: number;
  beforeAll(async () => {
    ts = await startTestServer();
    userId = (await createUser(ts)).id;
  });
  afterAll(async () => {
    await ts?.close();
  });

  /** A seeded cluster with a scheduler instance whose agent has just been spawned. */
  async function spawnedScheduler() {
    const { db, secrets } = ts.server.deps;
    const cluster = await seedStartingScheduler(db, secrets, userId, 'pending');
    const backendId = cluster.scheduler;
    const states = async () => {
      const [row] = await db
        .select({
          instance: instances.state,
          ip: instances.privateIpAddress,
          process: clusterProcesses.state,
        })
        .from(instances)
        .innerJoin(clusterProcesses, eq(clusterProcesses.id, instances.processId))
        .where(eq(instances.backendId, backendId));
      return row;
    };
    return { token: cluster.token, backendId, states };
  }

  it('records the instance started at its address and its process starting, and brings the preloads', async () => {
    const scheduler = await spawnedScheduler();
    const answer = await ts.api
      .as(scheduler.token)
      .get(BOOTSTRAP, { query: { backend_id: scheduler.backendId, started_at: '10.1.2.3' } });
    expect(answer.status).toBe(200);
    expect(answer.body.reported_started).toBe(true);
    expect(await scheduler.states()).toEqual({ instance: 'started', ip: '10.1.2.3', process: 'starting' });
    const names = answer.body.preloads as string[];
    expect(names).toEqual(['scheduler', 'no-client-shutdown', 'analytics', 'runs']);
    expect(Object.keys(answer.body.preload_sources)).toEqual(names);
    for (const name of names) {
      const served = await ts.api.as(scheduler.token).get(`/api/v2/cluster_facing/preload/${name}`);
      expect(answer.body.preload_sources[name]).toBe(served.text);
    }
  });

  it('without started_at records nothing and brings no sources (the agent fetches them)', async () => {
    const scheduler = await spawnedScheduler();
    const answer = await ts.api
      .as(scheduler.token)
      .get(BOOTSTRAP, { query: { backend_id: scheduler.backendId } });
    expect(answer.status).toBe(200);
    expect([answer.body.reported_started, answer.body.preload_sources]).toEqual([false, null]);
    expect(await scheduler.states()).toEqual({ instance: 'starting', ip: null, process: 'pending' });
  });
});
