import { availableParallelism, totalmem } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import { startClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';

/**
 * Hardware a cluster asks for (client-contract.md 2.2): the local backend gives a worker the
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
  ts = await startClusterServer();
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
