import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DescribeInstancesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
  type Instance,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedCidrsOf } from '../src/compute/aws/network.js';
import { clusterProcesses, clusters, instances, stateHistory } from '../src/db/schema/index.js';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import {
  CONNECT_AND_SUM,
  freePort,
  PYTHON,
  pythonClientEnv,
  runPython,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { Ec2Machines } from './helpers/ec2-vms.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { holdAndSum } from './helpers/hold-and-sum.js';
import { awsEnvironment, type Ec2Proxy, type Moto, startEc2Proxy, startMoto } from './helpers/moto.js';
import { repeatedLaunch } from './helpers/relaunch.js';

/**
 * Clusters on vm_aws against moto's EC2 (behind a proxy that speaks EC2's protocol, counts calls
 * and injects EC2's capacity errors). Ec2Machines boots each instance from its user-data as the VM
 * would, on EC2's own addresses, so the agents phone home and a real Dask client computes on the
 * cluster through the address the API answers.
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
let restoreEnv: () => void;
const env = () => ({ CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60' });
const ec2 = () => new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });

async function ec2Instances(cluster = clusterId): Promise<Instance[]> {
  const answer = await ec2().send(
    new DescribeInstancesCommand({
      Filters: [{ Name: `tag:cumulus:cluster-id`, Values: [String(cluster)] }],
    }),
  );
  return answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
}
const tag = (i: Instance, key: string) => i.Tags?.find((t) => t.Key === key)?.Value;
const alive = (list: Instance[]) => list.filter((i) => ['pending', 'running'].includes(i.State?.Name ?? ''));
const rowsOf = (cluster = clusterId) =>
  database.db.select().from(instances).where(eq(instances.clusterId, cluster));

/**
 * What each instance's launch said (the reason of its `starting` record, as the state timeline
 * shows it: the instance's own reason is cleared once its VM reports it started, which a fast boot
 * may do before a test reads it).
 */
function launchNotes(rows: { id: number }[]): Promise<string[]> {
  return waitFor('the launches recorded', async () => {
    const records = await database.db
      .select({ id: stateHistory.objectId, reason: stateHistory.reason })
      .from(stateHistory)
      .where(
        and(
          eq(stateHistory.objectType, 'worker_instance'),
          eq(stateHistory.state, 'starting'),
          inArray(
            stateHistory.objectId,
            rows.map((r) => r.id),
          ),
        ),
      );
    const notes = rows.map((r) => records.find((record) => record.id === r.id)?.reason);
    return notes.every((n) => n !== undefined) && (notes as string[]);
  });
}

/** Adds workers and answers the instance rows that came of it, once all have launched. */
async function addWorkers(n: number) {
  const before = new Set((await rowsOf()).map((r) => r.id));
  const scaled = await api.post(`/api/v2/workers/account/${slug}/cluster/${clusterId}/`, { n_workers: n });
  expect(scaled.status).toBe(201);
  return waitFor(`${n} more workers launched`, async () => {
    const added = (await rowsOf()).filter((r) => !before.has(r.id));
    return added.length === n && added.every((r) => r.launchedAt) && added;
  });
}

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startEc2Proxy(moto.url);
  // The SDK reads where AWS is itself.
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  machines = await Ec2Machines.open(proxy.url, moto.keys);
  database = await openTestDatabase();
  port = await freePort();
  ts = await startClusterServer(env(), { database, port });
  user = await createUser(ts);
  api = ts.api.as(user.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  await setUpAwsWorkspace(api, slug, moto.url, moto.keys);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await ts?.close();
  await machines?.stop();
  await proxy?.close();
  await moto?.stop();
  await database?.close();
  restoreEnv?.();
});

describe('a vm_aws cluster', () => {
  it('launches one tagged EC2 instance per machine; a Dask client outside the VPC computes through the address the API answers', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'on-ec2',
      workers: 2,
      worker_instance_types: ['m6i.xlarge', 'm5.xlarge'],
      scheduler_instance_types: ['m6i.large'],
    });
    expect(created.status).toBe(201);
    clusterId = created.body.id;
    await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    expect(machines.addressProblem).toBeNull();

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

    // What a client is told: EC2's public address of the scheduler, on the port the security
    // group opens, in the cluster's real region and zone.
    const vm = launched.find((i) => tag(i, 'cumulus:role') === 'scheduler')!;
    expect(vm.PublicIpAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const details = await waitFor('the addresses EC2 gave', async () => {
      const d = (await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).body;
      return d.scheduler.instance.public_ip_address === vm.PublicIpAddress && d;
    });
    expect(details).toMatchObject({
      backend_type: 'vm_aws',
      scheduler_port: 8786,
      cluster_options: { region_name: 'us-east-1', zone_name: vm.Placement?.AvailabilityZone },
      cluster_infra: { give_scheduler_public_ip: true },
      scheduler: { instance: { private_ip_address: vm.PrivateIpAddress } },
    });
    const [row] = await database.db.select().from(clusters).where(eq(clusters.id, clusterId));
    expect(row!.schedulerAddress).toBe(`tls://${vm.PrivateIpAddress}:8786`);
    expect(row!.dashboardAddress).toBe(`http://${vm.PrivateIpAddress}:8787`);

    // SSH: the cluster's key reaches every VM at boot (the user-data puts it in the sign-in user's
    // authorized_keys), and the security group opens port 22 to the workspace's allowed CIDR only.
    const options = await api.get(`/api/v1/${slug}/backend_options/`);
    expect(options.body).toMatchObject({ backend: 'vm_aws', capabilities: { ssh: true } });
    const ssh = await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}/ssh-key`);
    expect(ssh.body).toMatchObject({
      ssh_available: true,
      detail: '',
      scheduler_public_address: vm.PublicIpAddress,
      scheduler_address_to_use: vm.PublicIpAddress,
    });
    for (const i of launched) {
      const home = machines.booted.get(i.InstanceId!)!.home;
      const keys = path.join(home, '.ssh', 'authorized_keys');
      expect(readFileSync(keys, 'utf8')).toBe(`${ssh.body.public_key.trim()}\n`);
      expect(statSync(keys).mode & 0o777).toBe(0o600);
    }
    const rules = await allowedCidrsOf(ec2(), vm.SecurityGroups![0]!.GroupId!);
    expect(rules[22]).toEqual(['127.0.0.1/32']);
    // Only who may read the cluster sees its key.
    const stranger = await createUser(ts);
    const refused = await ts.api
      .as(stranger.key)
      .get(`/api/v2/clusters/account/${slug}/id/${clusterId}/ssh-key`);
    expect([403, 404]).toContain(refused.status);
    expect(JSON.stringify(refused.body)).not.toContain('PRIVATE KEY');

    // `cumulus cluster ssh` signs in as ubuntu with the cluster's key, on the scheduler or a worker
    // (an `ssh` that records what it was given stands in for OpenSSH's: no sshd runs here).
    const owner = (await findUserBy(database.db, 'id', user.id))!;
    const { token } = await createToken(database.db, owner, { label: 'cli-ssh' });
    const bin = mkdtempSync(path.join(tmpdir(), 'fake-ssh-'));
    const record = path.join(bin, 'record.json');
    writeFileSync(
      path.join(bin, 'ssh'),
      `#!${PYTHON}\nimport json, os, sys\nkey = sys.argv[sys.argv.index("-i") + 1]\n` +
        `json.dump({"argv": sys.argv[1:], "key": open(key).read(), "mode": os.stat(key).st_mode & 0o777}, open(${JSON.stringify(record)}, "w"))\n`,
      { mode: 0o755 },
    );
    const cli = (...args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          PYTHON,
          ['-m', 'cumulus', 'cluster', 'ssh', ...args],
          {
            env: pythonClientEnv(ts.url, token, `${bin}:`),
          },
          (err, _stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
        ),
      );
    const shell = await cli('on-ec2');
    expect(shell.stderr).toBe('');
    const scheduled = JSON.parse(readFileSync(record, 'utf8'));
    expect(scheduled.argv.at(-1)).toBe(`ubuntu@${vm.PublicIpAddress}`);
    expect(scheduled.argv).toContain('IdentitiesOnly=yes');
    expect(scheduled.key.trim()).toBe(ssh.body.private_key.trim());
    expect(scheduled.mode).toBe(0o600);
    const worker = details.workers[0];
    expect((await cli('--worker', worker.name, 'on-ec2', 'ls', '-la')).code).toBe(0);
    const onWorker = JSON.parse(readFileSync(record, 'utf8'));
    expect(onWorker.argv.slice(-3)).toEqual([
      `ubuntu@${worker.instance.public_ip_address ?? worker.instance.private_ip_address}`,
      'ls',
      '-la',
    ]);

    // The console's dashboard link reaches the scheduler through its public address too: the
    // control plane need not run inside the VPC.
    const gateway = `${vm.PublicIpAddress}:8787`;
    const before = machines.gatewayConnections.get(gateway) ?? 0;
    const pass = issuePass(ts.server.deps.config.secret, clusterId, user.id);
    const dashboard = await fetch(`${ts.url}/dashboard/${clusterId}/health?token=${pass}`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toBe('ok');
    expect(machines.gatewayConnections.get(gateway)).toBeGreaterThan(before);

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'details-')), 'details.json');
    writeFileSync(file, JSON.stringify(details));
    const result = JSON.parse(await runPython(CONNECT_AND_SUM, [file], 180_000));
    expect(result).toMatchObject({ sum: 1_000_000, workers: 2, address: `tls://${vm.PublicIpAddress}:8786` });
  }, 240_000);

  it('moves to the next instance type when EC2 has no capacity for the first, saying so on the instance', async () => {
    proxy.noCapacityFor.add('m6i.xlarge');
    try {
      const [added] = await addWorkers(1);
      expect(added!.instanceType).toBe('m5.xlarge');
      expect((await launchNotes([added!]))[0]).toMatch(
        /^Launched m5\.xlarge after: m6i\.xlarge in subnet-\w+: InsufficientInstanceCapacity: We currently do not have sufficient m6i\.xlarge capacity/,
      );
      await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    } finally {
      proxy.noCapacityFor.clear();
    }
  }, 240_000);

  it("tries the region's other subnets when a zone is short of the type, before another type", async () => {
    const subnets: string[] = (await api.get(`/api/v2/setup/account/${slug}/aws/regions`)).body.regions[0]
      .subnet_ids;
    expect(subnets.length).toBeGreaterThan(1);
    const open = subnets.at(-1)!;
    for (const s of subnets.slice(0, -1)) proxy.noCapacityFor.add(`m6i.xlarge@${s}`);
    try {
      // Two workers start in different subnets: at least one must move.
      const added = await addWorkers(2);
      const byId = new Map(alive(await ec2Instances()).map((i) => [i.InstanceId, i]));
      for (const r of added) {
        const vm = byId.get((r.backendData as { instanceId: string }).instanceId)!;
        expect(vm).toMatchObject({ InstanceType: 'm6i.xlarge', SubnetId: open });
      }
      expect((await launchNotes(added)).join('\n')).toMatch(
        /Launched m6i\.xlarge after: m6i\.xlarge in subnet-\w+: InsufficientInstanceCapacity/,
      );
      await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    } finally {
      proxy.noCapacityFor.clear();
    }
  }, 240_000);

  it('moves to the next instance type when the region does not offer the first', async () => {
    proxy.notOffered.add('m6i.xlarge');
    try {
      const [added] = await addWorkers(1);
      expect(added!.instanceType).toBe('m5.xlarge');
      expect((await launchNotes([added!]))[0]).toMatch(
        /^Launched m5\.xlarge after: m6i\.xlarge in subnet-\w+: InvalidParameterValue: The instance type 'm6i\.xlarge' is not supported in this region\.$/,
      );
      await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    } finally {
      proxy.notOffered.clear();
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
    const [row] = await rowsOf();
    const [cluster] = await database.db.select().from(clusters).where(eq(clusters.id, clusterId));
    const backend = await ts.server.deps.backends.forCluster(cluster!);
    const again = await backend.launch(repeatedLaunch(row!, cluster!, ['m6i.xlarge'], ts.url));
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
    expect(all.length).toBe(7);
    expect(alive(all)).toEqual([]);
    expect(all.every((i) => i.State?.Name === 'terminated')).toBe(true);
    await waitFor('the VMs gone', async () => (await machines.running()).size === 0, 30_000);
  }, 180_000);

  it('runs spot workers when the cluster asks, the scheduler on demand, and on-demand workers when spot is short', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'on-spot',
      workers: 1,
      options: { spot: true, spot_on_demand_fallback: true },
    });
    clusterId = created.body.id;
    await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    const lifecycle = (list: Instance[]) =>
      list.map((i) => [tag(i, 'cumulus:role'), i.InstanceLifecycle ?? 'on-demand']).sort();
    expect(lifecycle(alive(await ec2Instances()))).toEqual([
      ['scheduler', 'on-demand'],
      ['worker', 'spot'],
    ]);

    proxy.noCapacityFor.add('spot');
    try {
      const [added] = await addWorkers(1);
      expect((await launchNotes([added!]))[0]).toMatch(
        /^Launched m6i\.xlarge after: m6i\.xlarge spot in subnet-\w+: InsufficientInstanceCapacity/,
      );
      const vm = alive(await ec2Instances()).find(
        (i) => i.InstanceId === (added!.backendData as { instanceId: string }).instanceId,
      );
      expect(vm?.InstanceLifecycle).toBeUndefined();
      await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    } finally {
      proxy.noCapacityFor.clear();
    }
    await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
  }, 300_000);

  it('a spot worker EC2 interrupts retires mid-computation: its data moves, why is shown, an on-demand worker replaces it, the computation completes', async () => {
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'interrupted',
      workers: 2,
      options: { spot: true, spot_on_demand_fallback: true },
    });
    clusterId = created.body.id;
    const details = await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    // Both workers hold some of the data before one of them is interrupted.
    const computation = await holdAndSum(details);
    expect(computation.holders).toHaveLength(2);

    const workers = alive(await ec2Instances()).filter((i) => tag(i, 'cumulus:role') === 'worker');
    expect(workers.map((i) => i.InstanceLifecycle)).toEqual(['spot', 'spot']);
    const victim = workers[0]!;
    machines.interrupt(victim.InstanceId!);
    const row = (await rowsOf()).find(
      (r) => (r.backendData as { instanceId?: string } | null)?.instanceId === victim.InstanceId,
    )!;
    const retired = await waitFor('the worker retired, saying why', async () => {
      const [p] = await database.db
        .select()
        .from(clusterProcesses)
        .where(eq(clusterProcesses.id, row.processId));
      return p!.state === 'stopped' && p;
    });
    expect(retired.stateReason).toMatch(
      /^Spot interruption: EC2 terminate this instance at \d{4}-\d\d-\d\dT[\d:]+Z; its worker retired, its data moved to others$/,
    );
    // Two minutes later EC2 takes the instance back.
    await ec2().send(new TerminateInstancesCommand({ InstanceIds: [victim.InstanceId!] }));
    const result = await computation.sum();
    // Every part was computed once: the retired worker's parts moved, none was lost and recomputed.
    expect(result).toEqual({ sum: 120_000, runs: 16 });

    const replacement = await waitFor('a replacement worker', async () =>
      alive(await ec2Instances()).find(
        (i) => tag(i, 'cumulus:role') === 'worker' && !workers.some((w) => w.InstanceId === i.InstanceId),
      ),
    );
    // The policy allows fallback: the replacement runs on demand.
    expect(replacement.InstanceLifecycle).toBeUndefined();
    await waitForClusterState(api, slug, clusterId, 'ready', 180_000);
    await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
  }, 420_000);

  it("the product's Python client starts a cluster on EC2 by default, computes on it and stops it", async () => {
    const owner = (await findUserBy(database.db, 'id', user.id))!;
    const { token } = await createToken(database.db, owner, { label: 'python-client' });
    const runClient = (script: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          PYTHON,
          ['-c', script],
          {
            timeout: 300_000,
            env: pythonClientEnv(ts.url, token),
          },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        ),
      );
    // Without package sync the cluster runs the image's Python (ec2-software.test.ts syncs packages).
    const run = await runClient(`
import json, os, sys
import cumulus, dask.array as da
from distributed import Client
with cumulus.Cluster(name="py-ec2", n_workers=1, timeout=240, package_sync=False) as cluster:
    with Client(cluster) as client:
        total = da.ones((500, 500), chunks=(100, 100)).sum().compute()
        address = client.scheduler.address
    print(json.dumps({"sum": float(total), "cluster_id": cluster.cluster_id, "address": address}))
`);
    expect(
      run.stderr
        .split('\n')
        .filter((l) => l.includes('Error'))
        .join('\n'),
    ).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Package sync');
    const out = run.stdout;
    const result = JSON.parse(
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)!,
    );
    expect(result.sum).toBe(250_000);
    const vms = await ec2Instances(result.cluster_id);
    const scheduler = vms.find((i) => tag(i, 'cumulus:role') === 'scheduler')!;
    // Terminated, it has no public address any more in EC2: the one it booted with.
    const publicIp = machines.booted.get(scheduler.InstanceId!)?.publicIp;
    expect(publicIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(result.address).toBe(`tls://${publicIp}:8786`);
    // The client gave the cluster its own firewall: the scheduler's port open to the creator's
    // address as the server sees it (here, this machine), on the machines besides the workspace's group.
    const [stored] = await database.db.select().from(clusters).where(eq(clusters.id, result.cluster_id));
    expect((stored!.options.options as Record<string, unknown>).firewall_spec).toEqual({
      ingress: [{ ports: [8786], cidr: '127.0.0.1/32' }],
    });
    const groups = scheduler.SecurityGroups!.map((g) => g.GroupName);
    expect(groups).toEqual(
      expect.arrayContaining([`cumulus-${slug}`, expect.stringMatching(/^cumulus-cluster-/)]),
    );
    // Stopped, its machines gone, the cluster's group is gone too.
    await waitFor('its instances terminated', async () =>
      (await ec2Instances(result.cluster_id)).every((i) => i.State?.Name === 'terminated'),
    );
    await waitFor('its security group deleted', async () => {
      const left = await ec2().send(
        new DescribeSecurityGroupsCommand({
          Filters: [{ Name: 'tag:cumulus:cluster-id', Values: [String(result.cluster_id)] }],
        }),
      );
      return left.SecurityGroups?.length === 0;
    });
  }, 360_000);
});
