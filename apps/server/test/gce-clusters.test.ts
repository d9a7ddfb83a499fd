import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterProcesses, clusters, instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { computeOn, freePort, startClusterServer, waitFor, waitForClusterState } from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { GceMachines } from './helpers/gce-rig/machines.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { holdAndSum } from './helpers/hold-and-sum.js';
import { repeatedLaunch } from './helpers/relaunch.js';

/**
 * Clusters on vm_gcp against the GCE rig: the server talks to it through @google-cloud/compute
 * with a token it exchanged for the workspace's key; the rig boots each instance from its
 * startup script, so the agents phone home and a real Dask client computes on the cluster.
 */
let rig: GceRig;
let machines: GceMachines;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let port: number;
let userKey: string;
const serverEnv = () => ({
  CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60',
  ...rig.env(),
});
let slug: string;

beforeAll(async () => {
  rig = await new GceRig().start();
  machines = await new GceMachines(rig).start();
  database = await openTestDatabase();
  port = await freePort();
  ts = await startClusterServer(serverEnv(), { database, port });
  const user = await createUser(ts);
  userKey = user.key;
  api = ts.api.as(user.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  const saved = await api.post(`/api/v2/cloud-credentials/${slug}/gcp`, {
    credentials: rig.tokens.createKey('cumulus'),
  });
  expect(saved.status).toBe(200);
  const setup = (p: string) => `/api/v2/setup/account/${slug}/gcp/${p}`;
  expect((await api.post(setup('global'), { network: 'default', target_tags: ['dask'] })).status).toBe(200);
  expect((await api.post(setup('regions'), { regions: [{ region: 'us-central1' }] })).status).toBe(200);
  expect(
    (
      await api.patch(setup('settings'), {
        worker_instance_types: ['e2-standard-2'],
        scheduler_instance_types: ['e2-standard-2'],
      })
    ).status,
  ).toBe(200);
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await machines?.stop();
  await rig?.stop();
  await database?.close();
});

describe('a vm_gcp cluster', () => {
  it('runs on labelled Compute Engine instances, computes with Dask, and stops leaving none', {
    timeout: 400_000,
  }, async () => {
    const workspace = (await api.get('/api/v2/user/me')).body.default_account;
    expect(workspace.active_backend).toBe('vm_gcp');
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'on-gce', workers: 2 });
    expect(created.status).toBe(201);
    const clusterId = created.body.id as number;
    await waitForClusterState(api, slug, clusterId, 'ready', 240_000);

    const running = rig.instances.all().map(([, i]) => i);
    expect(running).toHaveLength(3);
    for (const i of running) {
      expect(i.labels).toMatchObject({
        'cumulus-cluster': String(clusterId),
        'cumulus-workspace': String(workspace.id),
      });
      expect(String(i.machineType)).toMatch(/\/machineTypes\/e2-standard-2$/);
      expect((i.tags as { items: string[] }).items).toEqual(['dask']);
    }
    expect(running.map((i) => i.labels?.['cumulus-role']).sort()).toEqual(['scheduler', 'worker', 'worker']);
    // Instances are spread over the region's zones.
    expect(new Set(rig.instances.all().map(([zone]) => zone)).size).toBeGreaterThan(1);

    const details = (await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).body;
    expect(details.backend_type).toBe('vm_gcp');
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 2 });

    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBeLessThan(300);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);
    await waitFor('no VM process left', async () => (await machines.running()).size === 0, 30_000);
    expect(rig.calls).toContain('Instances.Delete');
    // Every call carried a token the rig's token endpoint gave for the workspace's key.
    expect(rig.tokens.exchanges).toContain(`cumulus@${rig.project}.iam.gserviceaccount.com`);
  });

  it('moves to another zone of the region when one has no capacity', { timeout: 400_000 }, async () => {
    rig.instances.exhausted.add('us-central1-a');
    rig.instances.exhausted.add('us-central1-b');
    try {
      const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'zones', workers: 1 });
      expect(created.status).toBe(201);
      const clusterId = created.body.id as number;
      await waitForClusterState(api, slug, clusterId, 'ready', 240_000);
      const zones = rig.instances.all().map(([zone]) => zone);
      expect(zones).toHaveLength(2);
      for (const zone of zones) expect(['us-central1-c', 'us-central1-f']).toContain(zone);
      expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBeLessThan(300);
      await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
      await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);
    } finally {
      rig.instances.exhausted.clear();
    }
  });

  it('scales: added workers are new labelled instances Dask computes on; a retired one is deleted in Compute Engine', {
    timeout: 400_000,
  }, async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'scales', workers: 1 });
    expect(created.status).toBe(201);
    const clusterId = created.body.id as number;
    await waitForClusterState(api, slug, clusterId, 'ready', 240_000);
    const workersNow = () =>
      rig.instances
        .all()
        .map(([, i]) => i)
        .filter(
          (i) => i.labels?.['cumulus-cluster'] === String(clusterId) && i.labels['cumulus-role'] === 'worker',
        );
    expect(workersNow()).toHaveLength(1);
    const workers = `/api/v2/workers/account/${slug}/cluster/${clusterId}/`;

    const added = await api.post(workers, { n_workers: 2 });
    expect(added.status).toBe(201);
    const three = await waitFor(
      'three workers started',
      async () => {
        const res = await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}`);
        const started = res.body.workers.filter((w: any) => w.current_state.state === 'started');
        return res.body.current_state.state === 'ready' && started.length === 3 && res.body;
      },
      240_000,
    );
    expect(workersNow()).toHaveLength(3);
    expect(await computeOn(three)).toMatchObject({ sum: 1_000_000, workers: 3 });

    const victim = added.body[0].name as string;
    const removed = await api.delete(workers, { query: { name: [victim.slice('scales-worker'.length)] } });
    expect(removed.body).toMatchObject({ removed: [victim], desired_workers: 2 });
    await waitFor(
      'the retired worker deleted in Compute Engine',
      async () => workersNow().length === 2,
      120_000,
    );
    const two = await waitForClusterState(api, slug, clusterId, 'ready', 120_000);
    expect(await computeOn(two)).toMatchObject({ workers: 2 });

    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBeLessThan(300);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 90_000);
  });

  it('a Spot worker Compute Engine preempts retires mid-computation: its data moves, why is shown, an on-demand worker replaces it, the computation completes', {
    timeout: 420_000,
  }, async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'preempted',
      workers: 2,
      options: { spot: true, spot_on_demand_fallback: true },
    });
    expect(created.status).toBe(201);
    const clusterId = created.body.id as number;
    const details = await waitForClusterState(api, slug, clusterId, 'ready', 240_000);
    const workersNow = () =>
      rig.instances
        .all()
        .filter(
          ([, i]) =>
            i.labels?.['cumulus-cluster'] === String(clusterId) && i.labels['cumulus-role'] === 'worker',
        );
    const workers = workersNow();
    expect(workers.map(([, i]) => i.scheduling.provisioningModel)).toEqual(['SPOT', 'SPOT']);

    const computation = await holdAndSum(details);
    expect(computation.holders).toHaveLength(2);

    // Google's notice: the metadata server says preempted, and 30 s later the VM is gone.
    const [zone, victim] = workers[0]!;
    rig.instances.preempt(zone, victim.name, 30_000);
    const rows = await database.db.select().from(instances).where(eq(instances.clusterId, clusterId));
    const row = rows.find(
      (r) => (r.backendData as { instanceId?: string } | null)?.instanceId === `${zone}/${victim.name}`,
    )!;
    const retired = await waitFor('the worker retired, saying why', async () => {
      const [p] = await database.db
        .select()
        .from(clusterProcesses)
        .where(eq(clusterProcesses.id, row.processId));
      return p!.state === 'stopped' && p;
    });
    expect(retired.stateReason).toBe(
      "Spot interruption: Compute Engine preempts this instance (about 30 seconds' notice); its worker retired, its data moved to others",
    );
    // Every part was computed once: the retired worker's parts moved, none was lost and recomputed.
    expect(await computation.sum()).toEqual({ sum: 120_000, runs: 16 });

    const replacement = await waitFor('a replacement worker', async () =>
      workersNow().find(([, i]) => !workers.some(([, w]) => w.name === i.name)),
    );
    // The policy allows fallback: the replacement runs on demand.
    expect(replacement[1].scheduling.provisioningModel).toBeUndefined();
    await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBeLessThan(300);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 90_000);
  });

  it('a restarted server adopts the running instances by their labels, inserting nothing twice', {
    timeout: 400_000,
  }, async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'adopted', workers: 1 });
    expect(created.status).toBe(201);
    const clusterId = created.body.id as number;
    await waitForClusterState(api, slug, clusterId, 'ready', 240_000);
    const before = rig.instances
      .all()
      .map(([, i]) => i.id)
      .sort();
    expect(before).toHaveLength(2);

    // The server goes away without stopping anything (a crash, a rolling restart).
    await ts.server.close();
    const inserts = () => rig.calls.filter((c) => c === 'Instances.Insert').length;
    const insertsBefore = inserts();
    ts = await startClusterServer(serverEnv(), { database, port });
    api = ts.api.as(userKey);
    await new Promise((r) => setTimeout(r, 4000));
    await waitForClusterState(api, slug, clusterId, 'ready');

    // A launch repeated after a crash between the insert and writing its answer down finds the
    // instance by its backend-id label and adopts it.
    const [row] = await database.db
      .select()
      .from(instances)
      .where(eq(instances.clusterId, clusterId))
      .limit(1);
    const [cluster] = await database.db.select().from(clusters).where(eq(clusters.id, clusterId));
    const backend = await ts.server.deps.backends.forCluster(cluster!);
    const again = await backend.launch(repeatedLaunch(row!, cluster!, ['e2-standard-2'], ts.url));
    expect(again).toMatchObject({ adopted: true, instanceId: row!.backendData!.instanceId });
    expect(inserts()).toBe(insertsBefore);
    // Where the list by label does not show it yet, the insert in its zone finds its name taken
    // (409 alreadyExists): the instance there carries this launch's label, so it is adopted too.
    const [, name] = String(row!.backendData!.instanceId).split('/');
    rig.instances.unlisted.add(name!);
    try {
      const unlisted = await backend.launch(repeatedLaunch(row!, cluster!, ['e2-standard-2'], ts.url));
      expect(unlisted).toMatchObject({ instanceId: row!.backendData!.instanceId });
      expect(inserts()).toBe(insertsBefore + 1);
    } finally {
      rig.instances.unlisted.clear();
    }
    expect(
      rig.instances
        .all()
        .map(([, i]) => i.id)
        .sort(),
    ).toEqual(before);

    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBeLessThan(300);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);
  });
});
