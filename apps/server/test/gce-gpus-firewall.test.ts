import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FirewallsClient, GlobalOperationsClient } from '@google-cloud/compute';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClusterFirewall } from '../src/compute/gcp/cluster-firewall.js';
import type { GcePlacement } from '../src/compute/gcp/placement.js';
import { instanceSpecs } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { computeOn, startClusterServer, waitFor, waitForClusterState } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { gcloudOf, nodeOptions } from './helpers/gce-rig/clients.js';
import { GceMachines } from './helpers/gce-rig/machines.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { getInstance, setUpGcpWorkspace } from './helpers/gcp-workspace.js';

/**
 * What a vm_gcp cluster asks beyond machines: GPUs (attached to N1 types as `guestAccelerators`,
 * or an accelerator-optimized type's own), and a firewall of its own. One server, one rig, one
 * workspace (us-central1, and us-east1 where T4s are in two of three zones); each test starts a
 * cluster, reads what Compute Engine was asked back from the rig (its REST API and gcloud), and
 * stops it leaving nothing.
 */
let rig: GceRig;
let machines: GceMachines;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;
let gcloud: ReturnType<typeof gcloudOf>;
const gcloudConfig = mkdtempSync(path.join(tmpdir(), 'cumulus-gcloud-'));
const GPU_IMAGE = 'projects/deeplearning-platform-release/global/images/family/common-cu124-debian-11-py310';

beforeAll(async () => {
  // A subnet of its own: gce-clusters' VMs (the default 127.42.0.0/24) may serve Dask meanwhile.
  rig = await new GceRig({ subnetPrefix: '127.43.0' }).start();
  machines = await new GceMachines(rig).start();
  gcloud = gcloudOf(rig, gcloudConfig);
  ts = await startClusterServer({ CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60', ...rig.env() });
  api = ts.api.as((await createUser(ts)).key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  // Instances try us-east1-b first, where Compute Engine has no T4.
  await setUpGcpWorkspace(api, slug, rig, {
    regions: ['us-central1', 'us-east1'],
    settings: { zone: 'us-east1-b' },
  });
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await machines?.stop();
  await rig?.stop();
  rmSync(gcloudConfig, { recursive: true, force: true });
});

const clusterUrl = (id?: number) => `/api/v2/clusters/account/${slug}/${id === undefined ? '' : `id/${id}`}`;
/** The cluster's one instance of a role in the rig, with its zone. */
function instanceOf(clusterId: number, role: string): [string, Record<string, any>] {
  const found = rig.instances
    .all()
    .filter(
      ([, i]) => i.labels?.['cumulus-cluster'] === String(clusterId) && i.labels['cumulus-role'] === role,
    );
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function stop(clusterId: number) {
  expect((await api.delete(clusterUrl(clusterId))).status).toBeLessThan(300);
  await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
  await waitFor('no instance left', async () => rig.instances.all().length === 0, 60_000);
}

describe('GPUs on vm_gcp', () => {
  it('refuses a GPU count an N1 type does not take, naming the counts', async () => {
    const res = await api.post(clusterUrl(), {
      name: 'three-t4',
      workers: 1,
      worker_instance_types: ['n1-standard-4'],
      options: { worker_accelerator_count: 3, worker_accelerator_type: 'nvidia-tesla-t4' },
    });
    expect(res.status).toBe(400);
    expect(res.body['options.worker_accelerator_count']).toEqual([
      'n1-standard-4 takes 1, 2 or 4 nvidia-tesla-t4 GPUs (3 asked).',
    ]);
  });

  it('attaches T4s to an N1 worker in a zone that has them, runs a G2 scheduler on its own L4, both on the GPU image; Dask computes; nothing is left', {
    timeout: 400_000,
  }, async () => {
    const created = await api.post(clusterUrl(), {
      name: 'gpus',
      workers: 1,
      scheduler_instance_types: ['g2-standard-4'],
      options: {
        region_name: 'us-east1',
        worker_accelerator_count: 1,
        worker_accelerator_type: 'nvidia-tesla-t4',
        scheduler_accelerator_count: 1,
      },
    });
    expect(created.status, created.text).toBe(201);
    const clusterId = created.body.id as number;
    const details = await waitForClusterState(api, slug, clusterId, 'ready', 240_000);

    // The worker: no type was named, so the cheapest with a T4 (n1-standard-4 and one attached).
    // us-east1-b has none: the launch moved on to the next zone.
    const [workerZone, worker] = instanceOf(clusterId, 'worker');
    expect(workerZone).toBe('us-east1-c');
    const got = await getInstance(rig, workerZone, worker.name);
    expect(got.machineType).toMatch(/\/zones\/us-east1-c\/machineTypes\/n1-standard-4$/);
    expect(got.guestAccelerators).toEqual([
      {
        acceleratorType: `${rig.url}/compute/v1/projects/${rig.project}/zones/us-east1-c/acceleratorTypes/nvidia-tesla-t4`,
        acceleratorCount: 1,
      },
    ]);
    expect(got.scheduling.onHostMaintenance).toBe('TERMINATE');
    // The boot disk's image, as the insert asked it (the rig plays no disks to read it from).
    const imageOf = (name: string) =>
      (rig.instances.inserted.get(name) as any).disks[0].initializeParams.sourceImage;
    expect(imageOf(worker.name)).toBe(GPU_IMAGE);
    expect(got.metadata.items).toContainEqual({ key: 'install-nvidia-driver', value: 'True' });
    // gcloud, a second strict client, reads the same instance.
    const described = JSON.parse(
      await gcloud('compute', 'instances', 'describe', worker.name, `--zone=${workerZone}`, '--format=json'),
    ) as Record<string, any>;
    expect(described.guestAccelerators).toEqual(got.guestAccelerators);

    // The scheduler: a G2 brings its L4, so nothing is attached; it stays in the first zone.
    const [schedulerZone, scheduler] = instanceOf(clusterId, 'scheduler');
    expect(schedulerZone).toBe('us-east1-b');
    expect(scheduler.guestAccelerators).toEqual([
      {
        acceleratorType: `${rig.url}/compute/v1/projects/${rig.project}/zones/us-east1-b/acceleratorTypes/nvidia-l4`,
        acceleratorCount: 1,
      },
    ]);
    expect(scheduler.scheduling.onHostMaintenance).toBe('TERMINATE');
    expect(imageOf(scheduler.name)).toBe(GPU_IMAGE);

    // Recorded (and so metered) with their GPUs.
    const specs = await ts.server.deps.db
      .select()
      .from(instanceSpecs)
      .where(eq(instanceSpecs.clusterId, clusterId));
    expect(specs.map((s) => [s.role, s.instanceType, s.gpus]).sort()).toEqual([
      ['scheduler', 'g2-standard-4', 1],
      ['worker', 'n1-standard-4', 1],
    ]);
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 1 });
    await stop(clusterId);
  });
});

describe("a cluster's own firewall on vm_gcp", () => {
  it('is a VPC rule per ingress rule (exactly its CIDR and ports) and one between its machines, made before them and aimed at a tag every instance carries; found again; nothing left at stop', {
    timeout: 400_000,
  }, async () => {
    const spec = {
      ingress: [
        { ports: [8786], cidr: '198.51.100.7/32' },
        { ports: [22, 8786], cidr: '203.0.113.0/24' },
      ],
    };
    const calls = rig.calls.length;
    const created = await api.post(clusterUrl(), {
      name: 'walled',
      workers: 1,
      options: { firewall_spec: spec },
    });
    expect(created.status, created.text).toBe(201);
    const clusterId = created.body.id as number;
    await waitForClusterState(api, slug, clusterId, 'ready', 240_000);
    const workspaceId = (await api.get('/api/v2/user/me')).body.default_account.id as number;
    const tag = `cumulus-w${workspaceId}-c${clusterId}`;
    const network = `${rig.url}/compute/v1/projects/${rig.project}/global/networks/default`;
    const rulesNow = () =>
      [...rig.firewalls.rules.values()].filter((r) => (r.targetTags as string[]).includes(tag));
    const common = {
      network,
      direction: 'INGRESS',
      priority: 1000,
      targetTags: [tag],
      description: `The firewall of Cumulus cluster ${clusterId} of workspace ${workspaceId}`,
    };
    const wanted = [
      {
        ...common,
        name: `${tag}-0`,
        sourceRanges: ['198.51.100.7/32'],
        allowed: [{ IPProtocol: 'tcp', ports: ['8786'] }],
      },
      {
        ...common,
        name: `${tag}-1`,
        sourceRanges: ['203.0.113.0/24'],
        allowed: [{ IPProtocol: 'tcp', ports: ['22', '8786'] }],
      },
      { ...common, name: `${tag}-internal`, sourceTags: [tag], allowed: [{ IPProtocol: 'all' }] },
    ];
    expect(rulesNow().sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      wanted.map((w) => expect.objectContaining(w)),
    );
    for (const r of rulesNow()) expect(r).not.toHaveProperty(r.sourceTags ? 'sourceRanges' : 'sourceTags');
    // Made before the first instance; every instance carries the workspace's tags and the cluster's.
    const since = rig.calls.slice(calls);
    expect(since.lastIndexOf('Firewalls.Insert')).toBeLessThan(since.indexOf('Instances.Insert'));
    const mine = () =>
      rig.instances.all().filter(([, i]) => i.labels?.['cumulus-cluster'] === String(clusterId));
    for (const [, i] of mine()) expect((i.tags as { items: string[] }).items).toEqual(['dask', tag]);
    // gcloud reads the rule as Google would answer it.
    const described = JSON.parse(
      await gcloud('compute', 'firewall-rules', 'describe', `${tag}-1`, '--format=json'),
    ) as Record<string, unknown>;
    expect(described).toMatchObject({ sourceRanges: ['203.0.113.0/24'], targetTags: [tag] });

    // A worker added later carries the tag; the rules are not made again.
    const inserts = () => rig.calls.filter((c) => c === 'Firewalls.Insert').length;
    const before = inserts();
    await api.post(`/api/v2/workers/account/${slug}/cluster/${clusterId}/`, { n_workers: 1 });
    await waitFor('a second worker', async () => mine().length === 3, 120_000);
    for (const [, i] of mine()) expect((i.tags as { items: string[] }).items).toContain(tag);
    expect(inserts()).toBe(before);

    // Another server (nothing in memory) finds the rules by their description and makes none again;
    // what a crash left differing is put right: a rule changed, one gone, one of an old spec.
    const clients = {
      firewalls: new FirewallsClient(nodeOptions(rig)),
      globalOperations: new GlobalOperationsClient(nodeOptions(rig)),
    };
    const placement = { project: rig.project, network: 'default' } as GcePlacement;
    const cluster = { workspaceId, clusterId, spec };
    expect(await ensureClusterFirewall(clients, placement, cluster)).toBe(tag);
    expect(inserts()).toBe(before);
    rig.firewalls.rules.get(`${tag}-0`)!.sourceRanges = ['0.0.0.0/0'];
    rig.firewalls.rules.delete(`${tag}-internal`);
    rig.firewalls.rules.set(`${tag}-7`, { ...rig.firewalls.rules.get(`${tag}-1`)!, name: `${tag}-7` });
    await ensureClusterFirewall(clients, placement, cluster);
    expect(rulesNow().sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      wanted.map((w) => expect.objectContaining(w)),
    );

    // A leftover of an old spec is deleted with the rest at stop.
    rig.firewalls.rules.set(`${tag}-9`, { ...rig.firewalls.rules.get(`${tag}-1`)!, name: `${tag}-9` });
    await stop(clusterId);
    await waitFor('no rule of the cluster left', async () => rulesNow().length === 0, 60_000);
    expect(rig.firewalls.rules.size).toBe(0);
  });
});
