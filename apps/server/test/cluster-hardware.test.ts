import { availableParallelism, totalmem } from 'node:os';
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeVolumesCommand,
  EC2Client,
  RegisterImageCommand,
} from '@aws-sdk/client-ec2';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEMENT_TTL_MS } from '../src/compute/aws/ec2-backend.js';
import {
  clusters,
  instanceSpecs,
  instances as instancesTable,
  stateHistory,
} from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import { startClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';

/**
 * Hardware a cluster asks for: the local backend gives a worker the
 * threads and memory limit it asks, up to this machine's, and has no instance type but `local`;
 * vm_aws runs the catalogue's types of AWS. What a backend cannot give is a 400 naming the field,
 * nothing written; what is given is what limits and usage count.
 */
let moto: Moto;
let restoreEnv: (() => void) | undefined;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let local: { api: Api; slug: string };
let aws: { api: Api; slug: string };

const workspaceOf = async (api: Api) =>
  (await api.get('/api/v2/user/me')).body.default_account.slug as string;

beforeAll(async () => {
  moto = await startMoto();
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
  // moto's one arm64 image (al2022-…-arm64) is the arm64 image global setup finds by name.
  ts = await startClusterServer({ CUMULUS_AWS_AMI_NAME_ARM64: 'al2022-ami-*' });
  const a = ts.api.as((await createUser(ts)).key);
  local = { api: a, slug: await workspaceOf(a) };
  const b = ts.api.as((await createUser(ts)).key);
  aws = { api: b, slug: await workspaceOf(b) };
  await setUpAwsWorkspace(aws.api, aws.slug, moto.url, moto.keys);
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await moto?.stop();
  restoreEnv?.();
});

const create = (w: { api: Api; slug: string }, body: Record<string, unknown>) =>
  w.api.post(`/api/v2/clusters/account/${w.slug}/`, { workers: 1, ...body });
const clusterCount = async () => (await ts.server.deps.db.select().from(clusters)).length;
const cores = availableParallelism();
const memoryMib = Math.floor(totalmem() / 2 ** 20);

describe('hardware on the local backend', () => {
  it('refuses instance types it does not have, naming the field, and writes nothing', async () => {
    const before = await clusterCount();
    const res = await create(local, { name: 'typed', worker_instance_types: ['m6i.xlarge'] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.worker_instance_types[0]).toContain(
      "This server's local backend has no instance type m6i.xlarge",
    );
    const scheduler = await create(local, { name: 'typed', scheduler_instance_types: ['e2-standard-4'] });
    expect(Object.keys(scheduler.body)).toEqual(['scheduler_instance_types']);
    expect(await clusterCount()).toBe(before);
  });

  it("refuses more threads or memory than this machine has, and the scheduler's too", async () => {
    const threads = await create(local, { name: 'big', worker_options: { nthreads: cores + 1 } });
    expect(threads.status).toBe(400);
    expect(threads.body['worker_options.nthreads'][0]).toBe(
      `This server's machine has ${cores} cores: a worker can run at most ${cores} threads (${cores + 1} asked).`,
    );
    const memory = await create(local, { name: 'big', worker_options: { memory_limit: '100 TiB' } });
    expect(memory.status).toBe(400);
    expect(memory.body['worker_options.memory_limit'][0]).toContain('a worker can have at most that');
    const zero = await create(local, { name: 'big', worker_options: { nthreads: 0 } });
    expect(zero.body['worker_options.nthreads']).toBeDefined();
    const scheduler = await create(local, { name: 'big', scheduler_options: { cpu: cores + 1 } });
    expect(scheduler.body['scheduler_options.cpu'][0]).toContain('the scheduler can have 1 to');
    const region = await create(local, { name: 'big', options: { region_name: 'us-east-2' } });
    expect(region.body['options.region_name'][0]).toBe(
      "Clusters of this workspace run in local (this server's own machine); us-east-2 is not set up for them.",
    );
  });

  it("records and counts each worker's threads and memory limit as its machine", async () => {
    const threads = Math.min(2, cores);
    const res = await create(local, {
      name: 'sized',
      workers: 2,
      worker_instance_types: ['local'],
      worker_options: { nthreads: threads, memory_limit: '1 GiB' },
    });
    expect(res.status, res.text).toBe(201);
    const specs = (await local.api.get(`/api/v2/instance_specs/account/${local.slug}/`)).body.items.filter(
      (s: any) => s.cluster_id === res.body.id,
    );
    expect(specs.find((s: any) => s.role === 'worker')).toMatchObject({
      instance_type: 'local',
      cores: threads,
      memory_mib: 1024,
      dask_threads: threads,
    });
    expect(specs.find((s: any) => s.role === 'scheduler')).toMatchObject({ cores: 1, memory_mib: memoryMib });
    const usage = await local.api.get(`/api/v1/${local.slug}/usage/cores/`);
    expect(usage.body.cores_used).toBe(1 + 2 * threads);
    await local.api.delete(`/api/v2/clusters/account/${local.slug}/id/${res.body.id}`);
  });
});

describe('cluster_timeout', () => {
  it('stops a cluster that long after it was created, saying why', async () => {
    const res = await create(local, { name: 'timed', workers: 0, cluster_timeout_seconds: 2 });
    expect(res.status, res.text).toBe(201);
    const stopped = await waitFor('the cluster to stop', async () => {
      const d = await local.api.get(`/api/v2/clusters/account/${local.slug}/id/${res.body.id}`);
      return d.body.current_state.state === 'stopped' ? d.body : undefined;
    });
    expect(stopped.current_state.reason).toBe('Cluster ran for its cluster_timeout of 2 s');
  });
});

describe('hardware on vm_aws', () => {
  it("refuses another cloud's types and counts the cores of the types it runs", async () => {
    const gcp = await create(aws, { name: 'gcp-types', worker_instance_types: ['e2-standard-4'] });
    expect(gcp.status).toBe(400);
    expect(gcp.body.worker_instance_types[0]).toContain('e2-standard-4 is not an instance type of vm_aws');
    const elsewhere = await create(aws, { name: 'elsewhere', options: { region_name: 'eu-west-3' } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body['options.region_name'][0]).toContain('eu-west-3 is not set up for them');

    // What a client asking for 8 cores and 32 GiB sends: the catalogue's matches, cheapest first.
    const found = await aws.api.get('/api/v1/vm-types/', {
      query: { backend_type: 'vm_aws', cores: 8, memory__gte: 32 * 1024, gpus: 0, arch: 'x86_64' },
    });
    const types = found.body.results.map((t: any) => t.name);
    expect(types[0]).toBe('m5.2xlarge');
    expect(types).not.toContain('c6i.2xlarge'); // 8 cores but 16 GiB
    const prices = found.body.results.map((t: any) => t.price_per_hour);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));

    const res = await create(aws, {
      name: 'eight-cores',
      worker_instance_types: types,
      scheduler_instance_types: ['m6i.large'],
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, res.body.id));
    expect(row!.workerCores).toBe(8);
    expect(row!.workerOptions).toMatchObject({ nthreads: 8 });
    const usage = await aws.api.get(`/api/v1/${aws.slug}/usage/cores/`);
    expect(usage.body.cores_used).toBe(2 + 8);
    // The backend launches the first type, the cheapest (moto answers what it ran).
    const worker = await waitFor('the worker to be launched', async () => {
      const d = await aws.api.get(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
      const instance = d.body.workers?.[0]?.instance;
      // Until EC2 has launched it, an instance's type reads as the default `local`.
      return instance?.instance_type_id && instance.instance_type_id !== 'local' ? instance : undefined;
    });
    expect(worker.instance_type_id).toBe('m5.2xlarge');
    await aws.api.delete(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
  });
});

describe('where and on what a vm_aws cluster runs', () => {
  const ec2 = (region: string) => new EC2Client({ region, endpoint: moto.url, credentials: moto.keys });
  /** The EC2 instance of a cluster's first worker (or its scheduler), once launched. */
  const launchedWorker = (id: number, role: 'worker' | 'scheduler' = 'worker') =>
    waitFor(`the ${role} launched`, async () => {
      const rows = await ts.server.deps.db
        .select()
        .from(instancesTable)
        .where(eq(instancesTable.clusterId, id));
      const data = rows.find((r) => r.role === role && r.launchedAt)?.backendData as
        | { instanceId: string; region: string }
        | undefined;
      if (!data) return undefined;
      const answer = await ec2(data.region).send(
        new DescribeInstancesCommand({ InstanceIds: [data.instanceId] }),
      );
      return { region: data.region, vm: answer.Reservations![0]!.Instances![0]! };
    });
  const stop = (id: number) => aws.api.delete(`/api/v2/clusters/account/${aws.slug}/id/${id}`);
  /** Changed settings reach launches once the backend reads the workspace's placement again. */
  const settingsReachLaunches = () => new Promise((resolve) => setTimeout(resolve, PLACEMENT_TTL_MS + 100));

  it('runs in any of the set-up regions and in the zone asked, refusing others', async () => {
    const west = (await ec2('us-west-2').send(new DescribeImagesCommand({}))).Images!.find((i) =>
      i.ImageId?.startsWith('ami-'),
    )!.ImageId!;
    const regions = await aws.api.post(`/api/v2/setup/account/${aws.slug}/aws/regions`, {
      regions: [{ region: 'us-east-1', default: true }, { region: 'us-west-2' }],
    });
    expect(regions.status, regions.text).toBe(200);
    const settings = (await aws.api.get(`/api/v2/setup/account/${aws.slug}/aws/settings`)).body;
    await aws.api.patch(`/api/v2/setup/account/${aws.slug}/aws/settings`, {
      amis: { ...settings.amis, 'us-west-2': west },
    });
    const options = await aws.api.get(`/api/v1/${aws.slug}/backend_options/`);
    expect(options.body.options).toMatchObject({
      region_name: 'us-east-1',
      regions: ['us-east-1', 'us-west-2'],
    });

    const elsewhere = await create(aws, { name: 'elsewhere', options: { region_name: 'eu-west-3' } });
    expect(elsewhere.body['options.region_name'][0]).toBe(
      'Clusters of this workspace run in us-east-1, its default region, or us-west-2; eu-west-3 is not set up for them.',
    );
    const wrongZone = await create(aws, {
      name: 'zoned',
      options: { region_name: 'us-west-2', zone_name: 'us-east-1b' },
    });
    expect(wrongZone.body['options.zone_name'][0]).toBe(
      'us-east-1b is not a zone of us-west-2, where this cluster runs.',
    );

    const res = await create(aws, {
      name: 'west',
      options: { region_name: 'us-west-2', zone_name: 'us-west-2b' },
    });
    expect(res.status, res.text).toBe(201);
    const { region, vm } = await launchedWorker(res.body.id);
    expect(region).toBe('us-west-2');
    expect(vm.Placement?.AvailabilityZone).toBe('us-west-2b');
    expect(vm.ImageId).toBe(west);
    const details = await aws.api.get(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
    expect(details.body.cluster_options).toMatchObject({ region_name: 'us-west-2' });
    await stop(res.body.id);
    // A second region's first calls to the rig (its images, subnets, types) are slow on a busy
    // machine: 30 s ran out at a load of 19.
  }, 90_000);

  it("boots each type on its architecture's image: an arm64 worker on the arm64 image found by name", async () => {
    const settings = (await aws.api.get(`/api/v2/setup/account/${aws.slug}/aws/settings`)).body;
    const [arm] = (
      await ec2('us-east-1').send(new DescribeImagesCommand({ ImageIds: [settings.arm_amis['us-east-1']] }))
    ).Images!;
    expect([arm?.Architecture, arm?.Name]).toEqual(['arm64', expect.stringMatching(/^al2022-ami-/)]);
    const regions = (await aws.api.get(`/api/v2/setup/account/${aws.slug}/aws/regions`)).body.regions;
    expect(regions[0]).toMatchObject({
      ami_id: settings.amis['us-east-1'],
      arm_ami_id: arm!.ImageId,
      gpu_ami_id: null,
    });
    const res = await create(aws, { name: 'graviton', worker_instance_types: ['m7g.large'] });
    expect(res.status, res.text).toBe(201);
    const worker = (await launchedWorker(res.body.id)).vm;
    expect([worker.InstanceType, worker.ImageId]).toEqual(['m7g.large', arm!.ImageId]);
    const scheduler = (await launchedWorker(res.body.id, 'scheduler')).vm;
    expect([scheduler.InstanceType, scheduler.ImageId]).toEqual(['m6i.xlarge', settings.amis['us-east-1']]);
    await stop(res.body.id);
  });

  it("runs, records and counts a cluster naming no types as the workspace's default types: arm64 defaults give an arm64 cluster", async () => {
    const path = `/api/v2/setup/account/${aws.slug}/aws/settings`;
    const settings = (await aws.api.get(path)).body;
    const patched = await aws.api.patch(path, {
      worker_instance_types: ['m7g.large'],
      scheduler_instance_types: ['m7g.xlarge'],
    });
    expect(patched.status, patched.text).toBe(200);
    await settingsReachLaunches();
    try {
      const res = await create(aws, { name: 'graviton-default' });
      expect(res.status, res.text).toBe(201);
      const specs = await ts.server.deps.db
        .select()
        .from(instanceSpecs)
        .where(eq(instanceSpecs.clusterId, res.body.id));
      const byRole = Object.fromEntries(specs.map((s) => [s.role, [s.instanceType, s.arch, s.cores]]));
      expect(byRole).toEqual({
        worker: ['m7g.large', 'aarch64', 2],
        scheduler: ['m7g.xlarge', 'aarch64', 4],
      });
      const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, res.body.id));
      expect(row!.workerCores).toBe(2);
      const worker = (await launchedWorker(res.body.id)).vm;
      expect([worker.InstanceType, worker.ImageId]).toEqual(['m7g.large', settings.arm_amis['us-east-1']]);
      await stop(res.body.id);
    } finally {
      await aws.api.patch(path, {
        worker_instance_types: settings.worker_instance_types,
        scheduler_instance_types: settings.scheduler_instance_types,
      });
      await settingsReachLaunches();
    }
  });

  it('refuses to launch types of an architecture with no image in the region, saying which image is missing', async () => {
    const patched = await aws.api.patch(`/api/v2/setup/account/${aws.slug}/aws/settings`, { arm_amis: {} });
    expect(patched.status, patched.text).toBe(200);
    const x86 = patched.body.amis['us-east-1'];
    await settingsReachLaunches();
    const res = await create(aws, { name: 'arm', worker_instance_types: ['m7g.large', 'c7g.xlarge'] });
    expect(res.status, res.text).toBe(201);
    const reason = await waitFor('the worker refused', async () => {
      const d = await aws.api.get(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
      const w = d.body.workers?.[0];
      return w?.current_state.state === 'error' && w.current_state.reason;
    });
    expect(reason).toBe(
      `Could not launch: No arm64 image is set for us-east-1 (arm_amis; ${x86} is x86_64): m7g.large, c7g.xlarge cannot launch. Set the image in the workspace's AWS settings, or choose instance types an image there runs.`,
    );
    await stop(res.body.id);
    // A type an image runs is launched instead, its note saying which type was left out and why.
    const mixed = await create(aws, { name: 'mixed', worker_instance_types: ['m7g.large', 'm6i.xlarge'] });
    expect(mixed.status, mixed.text).toBe(201);
    expect((await launchedWorker(mixed.body.id)).vm.InstanceType).toBe('m6i.xlarge');
    const note = await waitFor('the launch note', async () => {
      const ids = (
        await ts.server.deps.db
          .select()
          .from(instancesTable)
          .where(eq(instancesTable.clusterId, mixed.body.id))
      ).map((r) => r.id);
      const notes = await ts.server.deps.db
        .select({ reason: stateHistory.reason })
        .from(stateHistory)
        .where(and(eq(stateHistory.objectType, 'worker_instance'), inArray(stateHistory.objectId, ids)));
      return notes.find((n) => n.reason?.startsWith('Launched'))?.reason;
    });
    expect(note).toBe(
      `Launched m6i.xlarge after: m7g.large: No arm64 image is set for us-east-1 (arm_amis; ${x86} is x86_64)`,
    );
    await stop(mixed.body.id);
  });

  it("sizes a worker's root volume as worker_disk_size asks, refusing a throughput gp3 cannot have", async () => {
    const res = await create(aws, { name: 'disks', worker_disk_size: 321, worker_disk_throughput: 250 });
    expect(res.status, res.text).toBe(201);
    const { region, vm } = await launchedWorker(res.body.id);
    const volumes = await ec2(region).send(
      new DescribeVolumesCommand({ Filters: [{ Name: 'attachment.instance-id', Values: [vm.InstanceId!] }] }),
    );
    expect(volumes.Volumes?.map((v) => v.Size)).toContain(321);
    const tooFast = await create(aws, { name: 'disks-fast', worker_disk_throughput: 5000 });
    expect(tooFast.body.worker_disk_throughput[0]).toBe(
      "A gp3 volume's throughput is 125 to 1000 MB/s (5000 asked).",
    );
    await stop(res.body.id);
  });

  it('gives workers the GPUs asked: a GPU type of the catalogue, or a refusal naming the type without', async () => {
    const without = await create(aws, {
      name: 'gpu',
      worker_instance_types: ['m6i.xlarge'],
      options: { worker_accelerator_count: 1, worker_accelerator_type: 'nvidia-tesla-t4' },
    });
    expect(without.status).toBe(400);
    expect(without.body['options.worker_accelerator_count'][0]).toBe(
      'm6i.xlarge has no 1 GPU (nvidia-tesla-t4).',
    );
    const gpuImage = (
      await ec2('us-east-1').send(new RegisterImageCommand({ Name: 'dask-gpu', RootDeviceName: '/dev/sda1' }))
    ).ImageId!;
    const patched = await aws.api.patch(`/api/v2/setup/account/${aws.slug}/aws/settings`, {
      gpu_amis: { 'us-east-1': gpuImage },
    });
    expect(patched.body.gpu_amis).toEqual({ 'us-east-1': gpuImage });
    await settingsReachLaunches();
    const res = await create(aws, {
      name: 'gpu',
      options: { worker_accelerator_count: 1, worker_accelerator_type: 'nvidia-tesla-t4' },
    });
    expect(res.status, res.text).toBe(201);
    const specs = (await aws.api.get(`/api/v2/instance_specs/account/${aws.slug}/`)).body.items.filter(
      (s: any) => s.cluster_id === res.body.id,
    );
    expect(specs.find((s: any) => s.role === 'worker')).toMatchObject({
      instance_type: 'g4dn.xlarge',
      gpus: 1,
    });
    const { vm } = await launchedWorker(res.body.id);
    expect(vm.InstanceType).toBe('g4dn.xlarge');
    // The GPU image boots GPU types; the scheduler (no GPU) keeps the region's image.
    expect(vm.ImageId).toBe(gpuImage);
    expect((await launchedWorker(res.body.id, 'scheduler')).vm.ImageId).not.toBe(gpuImage);
    const local8 = await create(local, { name: 'gpu', options: { worker_accelerator_count: 1 } });
    expect(local8.body['options.worker_accelerator_count'][0]).toBe(
      'Instances of backend in_process have no GPUs.',
    );
    await stop(res.body.id);
  });

  it('refuses what no backend here honours, naming the field and writing nothing', async () => {
    const before = await clusterCount();
    const refused = await create(aws, {
      name: 'unsupported',
      private_to_creator: true,
      worker_sidecars: [{ name: 'side', container: 'busybox' }],
      worker_disk_config: { iops: 3000 },
      options: { keypair_name: 'mine' },
      extra_worker_on_scheduler: true,
      n_worker_specs_per_host: 2,
      use_aws_creds_endpoint: true,
      extra_user_container: 'ghcr.io/me/app:1',
      coiled_cloud_env_image: 'ghcr.io/me/env:1',
      host_setup_script: 'apt-get install -y thing',
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body).sort()).toEqual([
      'coiled_cloud_env_image',
      'extra_user_container',
      'extra_worker_on_scheduler',
      'host_setup_script',
      'n_worker_specs_per_host',
      'options.keypair_name',
      'private_to_creator',
      'use_aws_creds_endpoint',
      'worker_disk_config',
      'worker_sidecars',
    ]);
    const onLocal = await create(local, {
      name: 'unsupported',
      worker_disk_size: 100,
      options: { zone_name: 'a' },
    });
    expect(Object.keys(onLocal.body).sort()).toEqual(['options.zone_name', 'worker_disk_size']);
    expect(await clusterCount()).toBe(before);
    // What a client sends when the user asked for none of it is no refusal.
    const quiet = await create(local, {
      name: 'defaults',
      extra_worker_on_scheduler: false,
      n_worker_specs_per_host: 1,
      use_aws_creds_endpoint: false,
      extra_user_container: null,
      coiled_cloud_env_image: null,
      host_setup_script: '',
      workers: 0,
    });
    expect(quiet.status).toBe(201);
    await local.api.delete(`/api/v2/clusters/account/${local.slug}/id/${quiet.body.id}`);
  });
});
