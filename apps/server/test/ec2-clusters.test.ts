import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DescribeInstancesCommand, EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import {
  CONNECT_AND_SUM,
  freePort,
  runPython,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { Ec2Machines } from './helpers/ec2-vms.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { type Ec2Proxy, type Moto, startEc2Proxy, startMoto } from './helpers/moto.js';

/**
 * Clusters on vm_aws against moto's EC2 (behind a proxy that speaks EC2's protocol, counts calls
 * and injects capacity errors). Ec2Machines boots each instance from its user-data as the VM
 * would, so the agents phone home and a real Dask client computes on the cluster.
 */
let moto: Moto;
let proxy: Ec2Proxy;
let machines: Ec2Machines;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let port: number;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let user: TestUser;
let api: Api;
let slug: string;
let clusterId: number;
const env = () => ({ AWS_ENDPOINT_URL: proxy.url, CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60' });
const ec2 = () => new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });

async function ec2Instances(): Promise<Instance[]> {
  const answer = await ec2().send(
    new DescribeInstancesCommand({
      Filters: [{ Name: `tag:cumulus:cluster-id`, Values: [String(clusterId)] }],
    }),
  );
  return answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
}
const tag = (i: Instance, key: string) => i.Tags?.find((t) => t.Key === key)?.Value;
const alive = (list: Instance[]) => list.filter((i) => ['pending', 'running'].includes(i.State?.Name ?? ''));

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startEc2Proxy(moto.url);
  machines = new Ec2Machines(moto.url, moto.keys).start();
  database = await openTestDatabase();
  port = await freePort();
  ts = await startClusterServer(env(), { database, port });
  user = await createUser(ts);
  api = ts.api.as(user.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  await setUpAwsWorkspace(api, slug, proxy.url, moto.keys);
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await machines?.stop();
  await proxy?.close();
  await moto?.stop();
  await database?.close();
});

describe('a vm_aws cluster', () => {
  it('launches one tagged EC2 instance per machine; booted from user-data, a Dask client computes on it', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'on-ec2',
      workers: 2,
      worker_instance_types: ['m6i.xlarge', 'm5.xlarge'],
      scheduler_instance_types: ['m6i.large'],
    });
    expect(created.status).toBe(201);
    clusterId = created.body.id;
    const details = await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    expect(details.backend_type).toBe('vm_aws');

    const launched = alive(await ec2Instances());
    expect(launched).toHaveLength(3);
    const roles = launched.map((i) => tag(i, 'cumulus:role')).sort();
    expect(roles).toEqual(['scheduler', 'worker', 'worker']);
    const workspaceId = (await api.get('/api/v2/user/me')).body.default_account.id;
    for (const i of launched) {
      expect(tag(i, 'cumulus:workspace-id')).toBe(String(workspaceId));
      expect(tag(i, 'cumulus:cluster-id')).toBe(String(clusterId));
      expect(i.InstanceType).toBe(tag(i, 'cumulus:role') === 'scheduler' ? 'm6i.large' : 'm6i.xlarge');
      expect(i.SecurityGroups?.[0]?.GroupName).toBe(`cumulus-${slug}`);
      expect(i.IamInstanceProfile?.Arn).toContain('cumulus-instances-');
    }
    expect(machines.booted.size).toBe(3);

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'details-')), 'details.json');
    writeFileSync(file, JSON.stringify(details));
    const result = JSON.parse(await runPython(CONNECT_AND_SUM, [file], 180_000));
    expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });
  }, 240_000);

  it('moves to the next instance type when EC2 has no capacity for the first, saying so on the instance', async () => {
    proxy.noCapacityFor.add('m6i.xlarge');
    try {
      const scaled = await api.post(`/api/v2/workers/account/${slug}/cluster/${clusterId}/`, {
        n_workers: 1,
      });
      expect(scaled.status).toBe(201);
      const added = await waitFor('the third worker on m5.xlarge', async () => {
        const rows = await database.db.select().from(instances).where(eq(instances.clusterId, clusterId));
        return rows.find((r) => r.instanceType === 'm5.xlarge' && r.launchedAt);
      });
      expect(added.stateReason).toMatch(
        /^Launched m5\.xlarge after: m6i\.xlarge: InsufficientInstanceCapacity: We currently do not have sufficient m6i\.xlarge capacity/,
      );
      await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
      const types = alive(await ec2Instances())
        .map((i) => i.InstanceType)
        .sort();
      expect(types).toEqual(['m5.xlarge', 'm6i.large', 'm6i.xlarge', 'm6i.xlarge']);
    } finally {
      proxy.noCapacityFor.clear();
    }
  }, 240_000);

  it('a restarted server adopts the running instances, launching nothing twice', async () => {
    const before = alive(await ec2Instances())
      .map((i) => i.InstanceId)
      .sort();
    // The server goes away without stopping anything (a crash, a rolling restart).
    await ts.server.close();
    proxy.resetCalls();
    ts = await startClusterServer(env(), { database, port });
    api = ts.api.as(user.key);
    await new Promise((r) => setTimeout(r, 4000));
    await waitForClusterState(api, slug, clusterId, 'ready');
    expect(
      alive(await ec2Instances())
        .map((i) => i.InstanceId)
        .sort(),
    ).toEqual(before);
    expect(proxy.calls.get('RunInstances') ?? 0).toBe(0);
    expect(proxy.calls.get('DescribeInstances') ?? 0).toBeGreaterThan(0);

    // A launch repeated after a crash between RunInstances and writing its answer down finds the
    // instance by its backend-id tag and adopts it.
    const [row] = await database.db.select().from(instances).where(eq(instances.clusterId, clusterId));
    const [cluster] = await database.db.select().from(clusters).where(eq(clusters.id, clusterId));
    const backend = await ts.server.deps.backends.forCluster(cluster!);
    const again = await backend.launch({
      instanceId: row!.id,
      backendId: row!.backendId,
      role: row!.role,
      name: row!.name,
      clusterId,
      workspaceId: cluster!.workspaceId,
      instanceTypes: ['m6i.xlarge'],
      clusterToken: 'unused',
      serverUrl: ts.url,
      unreachableTimeoutMs: 60_000,
    });
    expect(again).toMatchObject({ adopted: true, instanceId: row!.backendData!.instanceId });
    expect(proxy.calls.get('RunInstances') ?? 0).toBe(0);
    expect(
      alive(await ec2Instances())
        .map((i) => i.InstanceId)
        .sort(),
    ).toEqual(before);
  }, 240_000);

  it('stopping the cluster terminates its instances in EC2', async () => {
    const res = await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`);
    expect(res.status).toBeLessThan(300);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    const all = await ec2Instances();
    expect(all.length).toBe(4);
    expect(alive(all)).toEqual([]);
    expect(all.every((i) => i.State?.Name === 'terminated')).toBe(true);
    await waitFor('the VMs gone', async () => (await machines.running()).size === 0, 30_000);
  }, 180_000);

  it('runs spot workers when the cluster asks, the scheduler staying on demand', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'on-spot',
      workers: 1,
      options: { spot: true, spot_on_demand_fallback: true },
    });
    const spotCluster = created.body.id;
    await waitForClusterState(api, slug, spotCluster, 'ready', 180_000);
    const answer = await ec2().send(
      new DescribeInstancesCommand({
        Filters: [{ Name: 'tag:cumulus:cluster-id', Values: [String(spotCluster)] }],
      }),
    );
    const launched = alive(answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? []);
    const lifecycle = Object.fromEntries(
      launched.map((i) => [tag(i, 'cumulus:role'), i.InstanceLifecycle ?? 'on-demand']),
    );
    expect(lifecycle).toEqual({ scheduler: 'on-demand', worker: 'spot' });
    await api.delete(`/api/v2/clusters/account/${slug}/id/${spotCluster}`);
    await waitForClusterState(api, slug, spotCluster, 'stopped', 120_000);
  }, 240_000);
});
