import { execFileSync } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../src/db/schema/index.js';
import { detailsVersion } from '../src/domains/clusters/details-wait.js';
import { PYTHON_DIR } from '../src/paths.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { type RunningCluster, seedRunningCluster } from './helpers/running-cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const WORKER_REPORT = '/api/v2/cluster_facing/worker/phone-home/instance/';

/**
 * A client waiting for a starting cluster holds its details request (`?wait_for_change=&seen=`)
 * instead of asking every 100 ms: the answer comes when a state of the cluster changes (issue 43).
 */
describe('details held until they change', () => {
  let ts: TestServer;
  let user: TestUser;
  let slug: string;
  beforeAll(async () => {
    ts = await startTestServer();
    user = await createUser(ts);
    const { rows } = (await ts.server.deps.db.execute(
      sql`select a.slug from accounts a join users u on u.default_account_id = a.id where u.id = ${user.id}`,
    )) as unknown as { rows: Array<{ slug: string }> };
    slug = rows[0]!.slug;
  });
  afterAll(async () => {
    await ts?.close();
  });

  /** A seeded running cluster (one worker) whose details can be presented (its TLS key sealed). */
  async function running(): Promise<RunningCluster> {
    const { db, secrets } = ts.server.deps;
    const cluster = await seedRunningCluster(db, user.id);
    await db
      .update(clusters)
      .set({ tlsKeyBox: secrets.encrypt('key') })
      .where(eq(clusters.id, cluster.id));
    return cluster;
  }

  const details = (cluster: RunningCluster, query: Record<string, string | number> = {}) =>
    ts.api.as(user.key).get(`/api/v2/clusters/account/${slug}/id/${cluster.id}`, { query });

  it('answers when a state changes, not at the end of the wait', async () => {
    const cluster = await running();
    const first = await details(cluster);
    expect(first.status).toBe(200);
    const began = Date.now();
    // Held again with each answer's version until the worker is seen stopped (the server's loops
    // may change something of the seeded cluster meanwhile: that answers a held request too).
    const held = (async () => {
      let seen = detailsVersion(first.body);
      for (;;) {
        const answer = await details(cluster, { wait_for_change: 8, seen });
        expect(answer.status).toBe(200);
        expect(detailsVersion(answer.body)).not.toBe(seen);
        if (answer.body.workers[0].current_state.state === 'stopped') return Date.now();
        seen = detailsVersion(answer.body);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const report = await ts.api.as(cluster.token).patch(WORKER_REPORT, {
      backend_id: cluster.backendId,
      state: 'stopped',
      reason: 'told to',
    });
    expect(report.status).toBe(200);
    const at = await held;
    expect(at - began).toBeGreaterThanOrEqual(350);
    expect(at - began).toBeLessThan(7000);
  });

  it('is the version the Python client computes (cumulus.startup.details_version)', async () => {
    const cluster = await running();
    const { body } = await details(cluster);
    const python = execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        'import json, sys\nfrom cumulus.startup import details_version\nprint(details_version(json.load(sys.stdin)))',
      ],
      { input: JSON.stringify(body), env: { ...process.env, PYTHONPATH: PYTHON_DIR } },
    );
    expect(python.toString().trim()).toBe(detailsVersion(body));
  });

  it('answers at once when the version differs, and as they are once the wait is over', async () => {
    const cluster = await running();
    const first = await details(cluster);
    let began = Date.now();
    const stale = await details(cluster, { wait_for_change: 8, seen: 'not-this-one' });
    expect(Date.now() - began).toBeLessThan(3000);
    expect(stale.body.workers).toEqual(first.body.workers);
    began = Date.now();
    const seen = detailsVersion(first.body);
    const waited = await details(cluster, { wait_for_change: 0.6, seen });
    expect(waited.status).toBe(200);
    // Answered sooner only when something changed (the server's loops may move a seeded cluster).
    if (detailsVersion(waited.body) === seen) expect(Date.now() - began).toBeGreaterThanOrEqual(550);
  });

  it('refuses a wait it would not keep, by name', async () => {
    const cluster = await running();
    const answer = await details(cluster, { wait_for_change: 60, seen: 'x' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('wait_for_change');
  });
});
