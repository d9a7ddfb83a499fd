import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterProcesses, clusters, instances, softwareBuilds } from '../src/db/schema/index.js';
import { buildsOfClusters } from '../src/domains/clusters/index.js';
import { collectEnvironments } from '../src/domains/software/gc.js';
import type { Api } from './helpers/api.js';
import {
  computeOn,
  freePort,
  runAgainst,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { buildOfContainer, testImages, whereInImage } from './helpers/containers.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { GceMachines } from './helpers/gce-rig/machines.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { setUpGcpWorkspace } from './helpers/gcp-workspace.js';
import { holdAndSum } from './helpers/hold-and-sum.js';
import { repeatedLaunch } from './helpers/relaunch.js';
import { builtEnvironment, makeWheel, uploadWheel } from './helpers/wheels.js';

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
  await setUpGcpWorkspace(api, slug, rig);
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

    // SSH: the cluster's key is each VM's `ssh-keys` metadata for ubuntu, which Google's guest
    // environment (played by the rig) puts in that user's authorized_keys; not in the startup script.
    const options = await api.get(`/api/v1/${slug}/backend_options/`);
    expect(options.body).toMatchObject({ backend: 'vm_gcp', capabilities: { ssh: true } });
    const ssh = await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}/ssh-key`);
    expect(ssh.body).toMatchObject({ ssh_available: true, detail: '' });
    const publicKey = String(ssh.body.public_key).trim();
    for (const i of running) {
      const items = (i.metadata.items ?? []) as { key: string; value: string }[];
      expect(items.find((m) => m.key === 'ssh-keys')?.value).toBe(`ubuntu:${publicKey}`);
      expect(items.find((m) => m.key === 'startup-script')?.value).not.toContain(publicKey);
      expect(machines.sshUsers.get(i.name)).toEqual(['ubuntu']);
    }
    expect(ssh.body.scheduler_public_address).toBe(details.scheduler.instance.public_ip_address);

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

  it('runs a container environment: the image checked on this server, Dask in it on each VM as nobody; Arm types refused for an x86_64 image', {
    timeout: 400_000,
  }, async () => {
    const image = 'localhost/cumulus-test/dask:bookworm';
    await testImages();
    const build = await buildOfContainer(api, slug, 'gce-stack', image);
    expect(build.reason ?? '').toBe('');
    expect(build).toMatchObject({ state: 'built', backend_type: 'vm_gcp' });
    const clusters = `/api/v2/clusters/account/${slug}/`;
    const refused = await api.post(clusters, {
      name: 'gce-arm',
      workers: 1,
      env_name: 'gce-stack',
      scheduler_instance_types: ['t2a-standard-4'],
      worker_instance_types: ['t2a-standard-4'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.env_name?.[0]).toContain('built for x86_64, but this cluster');
    const created = await api.post(clusters, { name: 'gce-contained', workers: 1, env_name: 'gce-stack' });
    expect(created.status, created.text).toBe(201);
    await waitForClusterState(api, slug, created.body.id, 'ready', 240_000);
    const details = (await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`)).body;
    const seen = await whereInImage(details);
    for (const where of [seen.scheduler, seen.worker]) expect(where).toMatchObject({ image, uid: 65534 });
    expect(seen.sum).toBe(500500);
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`)).status).toBeLessThan(
      300,
    );
    await waitForClusterState(api, slug, created.body.id, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);
  });

  it('builds a pip environment on a build machine of Compute Engine, and the cluster runs Dask from it', {
    timeout: 400_000,
  }, async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-gce-build-'));
    const fileId = await uploadWheel(
      api,
      slug,
      await makeWheel(scratch, 'gce_synced_pkg', '1.0.0', 'on-gce'),
    );
    const { build, logs } = await builtEnvironment(
      api,
      slug,
      {
        name: 'gce-pip',
        packages: [{ name: 'gce_synced_pkg', specifier: '==1.0.0', source: 'pip', file: fileId }],
      },
      300_000,
    );
    const buildId = build.id as number;
    expect(build.state, build.reason).toBe('built');
    // Built on a build machine of its own, labelled as the build's, and deleted once it ended.
    expect(rig.calls).toContain('Instances.Insert');
    expect(
      logs.some((l) => /^Build machine: e2-standard-2 \(x86_64\) from .* in us-central1-[a-f]$/.test(l)),
    ).toBe(true);
    await waitFor('the build machine deleted', async () =>
      rig.instances.all().every(([, i]) => i.labels?.['cumulus-backend-id'] !== `build-${buildId}`),
    );

    // The archive is an object of the workspace's bucket (the one the setup names), put there by
    // the build machine with a signed link, kept under its content hash; none on this server.
    const bucket = (await api.get(`/api/v2/setup/account/${slug}/gcp/global`)).body.archive_bucket as string;
    const workspaceId = (await api.get('/api/v2/user/me')).body.default_account.id as number;
    expect(bucket).toMatch(new RegExp(`^cumulus-${rig.project}-w${workspaceId}-[0-9a-f]{6}$`));
    expect(rig.storage.buckets.get(bucket)?.resource).toMatchObject({
      location: 'US-CENTRAL1',
      labels: { 'cumulus-workspace': String(workspaceId), 'cumulus-role': 'environments' },
      iamConfiguration: { uniformBucketLevelAccess: { enabled: true }, publicAccessPrevention: 'enforced' },
    });
    const [row] = await ts.server.deps.db.select().from(softwareBuilds).where(eq(softwareBuilds.id, buildId));
    const object = `environments/env-${row!.lockfileHash}.tar.gz`;
    expect(row!.location).toBe(`gs://${bucket}/${object}`);
    const archive = rig.storage.object(bucket, object);
    expect(archive?.resource.size).toBe(String(row!.sizeBytes));
    expect(row!.sizeBytes).toBeGreaterThan(1000);
    expect(rig.storage.object(bucket, `builds/build-${buildId}.tar.gz`)).toBeUndefined();
    expect(rig.storage.signedRequests).toContainEqual({
      method: 'PUT',
      bucket,
      object: `builds/build-${buildId}.tar.gz`,
      signer: `cumulus@${rig.project}.iam.gserviceaccount.com`,
      status: 200,
      authorization: false,
    });
    const kept = path.join(ts.dataDir, 'environments', 'archives');
    expect(existsSync(kept) ? readdirSync(kept).filter((f) => f.endsWith('.gz')) : []).toEqual([]);
    const downloadsBefore = rig.storage.signedRequests.filter((r) => r.method === 'GET').length;

    const cluster = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'gce-pip',
      workers: 1,
      env_name: 'gce-pip',
    });
    expect(cluster.status, cluster.text).toBe(201);
    await waitForClusterState(api, slug, cluster.body.id, 'ready', 240_000);
    const details = (await api.get(`/api/v2/clusters/account/${slug}/id/${cluster.body.id}`)).body;
    const seen = await runAgainst<{ scheduler: string; workers: string[] }>(
      details,
      `
def probe():
    import gce_synced_pkg
    return gce_synced_pkg.VALUE
with Client(address, security=sec, timeout=60) as client:
    client.wait_for_workers(1, timeout=120)
    print(json.dumps({"scheduler": client.run_on_scheduler(probe), "workers": list(client.run(probe).values())}))
`,
      240_000,
    );
    expect(seen).toEqual({ scheduler: 'on-gce', workers: ['on-gce'] });
    // Each VM downloaded it from the bucket by a signed link, with no token of the cluster's.
    const downloads = rig.storage.signedRequests.filter((r) => r.method === 'GET').slice(downloadsBefore);
    expect(downloads.length).toBeGreaterThanOrEqual(1);
    for (const d of downloads)
      expect(d).toEqual({
        method: 'GET',
        bucket,
        object,
        signer: `cumulus@${rig.project}.iam.gserviceaccount.com`,
        status: 200,
        authorization: false,
      });
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${cluster.body.id}`)).status).toBeLessThan(
      300,
    );
    await waitForClusterState(api, slug, cluster.body.id, 'stopped', 120_000);
    await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);

    // A newer spec takes the alias over; garbage collection deletes the old archive's object.
    const newer = await builtEnvironment(api, slug, { name: 'gce-pip', raw_pip: [] }, 300_000);
    expect(newer.build.state, newer.build.reason).toBe('built');
    const [newerRow] = await ts.server.deps.db
      .select()
      .from(softwareBuilds)
      .where(eq(softwareBuilds.id, newer.build.id as number));
    expect(newerRow!.location).toBe(`gs://${bucket}/environments/env-${newerRow!.lockfileHash}.tar.gz`);
    const { db, backends } = ts.server.deps;
    await collectEnvironments(db, backends, {
      retentionMs: 0,
      dataDir: ts.dataDir,
      log: ts.app.log,
      buildsOfClusters: () => buildsOfClusters(db),
    });
    expect(rig.storage.object(bucket, object)).toBeUndefined();
    expect(rig.storage.object(bucket, `environments/env-${newerRow!.lockfileHash}.tar.gz`)).toBeDefined();
    const [archived] = await db.select().from(softwareBuilds).where(eq(softwareBuilds.id, buildId));
    expect(archived!.location).toBeNull();
    expect(archived!.archivedAt).not.toBeNull();

    // Deleting the alias deletes the object of its builds at once: nothing would find it later.
    const newerObject = `environments/env-${newerRow!.lockfileHash}.tar.gz`;
    const deleted = await api.delete(`/api/v2/software-environment/account/${slug}/alias/name/gce-pip`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(rig.storage.object(bucket, newerObject)).toBeUndefined();
    rmSync(scratch, { recursive: true, force: true });
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
