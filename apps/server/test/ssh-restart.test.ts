import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLabels } from '../src/compute/ssh/placement.js';
import { instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import {
  computeOn,
  freePort,
  restartAndAwaitInstances,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import {
  RIG_LOCK_WAIT_MS,
  rigHostBody,
  rigProcessesOf,
  type SshRig,
  startSshRig,
} from './helpers/ssh-hosts.js';

/**
 * SSH hosts' labels and a control plane restart, on the real sshd hosts of helpers/ssh-hosts.ts:
 * a cluster's `worker_instance_types` (the client's `worker_vm_types`) name the labels of the
 * hosts its workers may run on, refused with the reason when no host carries one; and a cluster
 * running on the hosts when the server goes away is adopted by the next server (same database,
 * same address): the same instances and processes, still computing.
 */
let rig: SshRig;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let port: number;
let server: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;
let userKey: string;

beforeAll(async () => {
  rig = await startSshRig(2);
  database = await openTestDatabase();
  port = await freePort();
  server = await startClusterServer({}, { database, port });
  const user = await createUser(server);
  userKey = user.key;
  api = server.api.as(userKey);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  for (const [i, labels] of [[], ['big']].entries()) {
    const added = await api.post(`/api/v2/ssh-hosts/${slug}`, rigHostBody(rig, i, { cores: 4, labels }));
    expect(added.status).toBe(201);
  }
}, RIG_LOCK_WAIT_MS + 120_000);

afterAll(async () => {
  try {
    await server?.close();
    await database?.close();
  } finally {
    await rig?.close();
  }
}, 120_000);

const hostsOf = async (clusterId: number, role: 'scheduler' | 'worker') =>
  (
    await database.db
      .select()
      .from(instances)
      .where(and(eq(instances.clusterId, clusterId), eq(instances.role, role)))
  ).map((r) => String(r.backendData?.host).split(' ')[0]);

describe('ssh host labels', () => {
  it('keeps to the hosts carrying a label asked, all hosts for none, and says which labels there are', () => {
    const hosts = [
      { id: 1, labels: ['big'] },
      { id: 2, labels: ['gpu', 'big'] },
      { id: 3, labels: [] },
    ];
    expect(withLabels(hosts, []).map((h) => h.id)).toEqual([1, 2, 3]);
    expect(withLabels(hosts, ['gpu']).map((h) => h.id)).toEqual([2]);
    expect(withLabels(hosts, ['small', 'big']).map((h) => h.id)).toEqual([1, 2]);
    expect(() => withLabels(hosts, ['fast'])).toThrow(
      "No healthy SSH host of this workspace carries the label fast (asked by the cluster's vm types): its hosts carry big, gpu.",
    );
  });

  it('refuses, with the reason, workers asking for a label no host carries', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'no-such-label',
      workers: 1,
      worker_instance_types: ['gpu'],
    });
    expect(created.status).toBe(201);
    const reason = await waitFor('the worker to fail', async () => {
      const [w] = await database.db
        .select()
        .from(instances)
        .where(and(eq(instances.clusterId, created.body.id), eq(instances.role, 'worker')));
      return w?.state === 'error' ? w.stateReason : undefined;
    });
    expect(reason).toBe(
      "Could not launch: No healthy SSH host of this workspace carries the label gpu (asked by the cluster's vm types): its hosts carry big.",
    );
    await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
    await waitForClusterState(api, slug, created.body.id, 'stopped', 120_000);
  }, 180_000);
});

describe('ssh clusters across a server restart', () => {
  it('places labelled workers on the labelled host; the next server adopts the running cluster, which still computes', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'survivor',
      workers: 2,
      worker_instance_types: ['big'],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await waitForClusterState(api, slug, id, 'ready', 180_000);
    // Both workers on rig-3, the one labelled big; the scheduler asked for no label (rig-2 fits it best: both are empty).
    expect(await hostsOf(id, 'worker')).toEqual(['rig-3', 'rig-3']);
    const rowsBefore = await database.db.select().from(instances).where(eq(instances.clusterId, id));
    const pidsBefore = (await rigProcessesOf(rig.home, rowsBefore)).map((p) => p.pid).sort();
    expect(pidsBefore.length).toBeGreaterThanOrEqual(3);

    // The server goes away without stopping anything (a crash, a rolling restart); the next one takes over.
    server = await restartAndAwaitInstances(server, {}, { database, port }, id, rowsBefore.length);
    api = server.api.as(userKey);
    // Reconcile passes later: the same instances and the same processes, nothing relaunched.
    await new Promise((r) => setTimeout(r, 3000));
    const details = await waitForClusterState(api, slug, id, 'ready');
    const rowsAfter = await database.db.select().from(instances).where(eq(instances.clusterId, id));
    // The same instances, each ready (one read at the cluster's ready may still have said 'started').
    expect(rowsAfter.map((r) => [r.id, r.state]).sort()).toEqual(
      rowsBefore.map((r) => [r.id, 'ready']).sort(),
    );
    const pidsAfter = (await rigProcessesOf(rig.home, rowsBefore)).map((p) => p.pid).sort();
    expect(pidsAfter).toEqual(pidsBefore);
    const result = await computeOn(details);
    expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });

    await api.delete(`/api/v2/clusters/account/${slug}/id/${id}`);
    await waitForClusterState(api, slug, id, 'stopped', 120_000);
    expect(await rigProcessesOf(rig.home, rowsBefore)).toEqual([]);
  }, 420_000);
});
