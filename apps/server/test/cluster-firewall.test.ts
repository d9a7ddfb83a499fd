import { execFile } from 'node:child_process';
import { DescribeInstancesCommand, DescribeSecurityGroupsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, instances as instancesTable } from '../src/db/schema/index.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import { PYTHON, pythonClientEnv, startClusterServer, waitFor } from './helpers/clusters.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { awsEnvironment, type Ec2Proxy, type Moto, startEc2Proxy, startMoto } from './helpers/moto.js';

/**
 * A cluster's own firewall (`firewall_spec`): on vm_aws a security group
 * of the cluster's, in the workspace's VPC, with exactly its ingress rules and every port open
 * between its machines, on every machine besides the workspace's group, gone once the cluster
 * stops. A bad rule is a 400 naming it; the local backend refuses a firewall, saying why.
 */
let moto: Moto;
let proxy: Ec2Proxy;
let restoreEnv: (() => void) | undefined;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let local: { api: Api; slug: string };
let aws: { api: Api; slug: string };
let awsUser: TestUser;

const workspaceOf = async (api: Api) =>
  (await api.get('/api/v2/user/me')).body.default_account.slug as string;
const ec2 = () => new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startEc2Proxy(moto.url);
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  ts = await startClusterServer();
  const a = ts.api.as((await createUser(ts)).key);
  local = { api: a, slug: await workspaceOf(a) };
  awsUser = await createUser(ts);
  const b = ts.api.as(awsUser.key);
  aws = { api: b, slug: await workspaceOf(b) };
  await setUpAwsWorkspace(aws.api, aws.slug, moto.url, moto.keys);
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await proxy?.close();
  await moto?.stop();
  restoreEnv?.();
});

const create = (w: { api: Api; slug: string }, options: Record<string, unknown>, name = 'walled') =>
  w.api.post(`/api/v2/clusters/account/${w.slug}/`, { name, workers: 1, options });
const clusterCount = async () => (await ts.server.deps.db.select().from(clusters)).length;

/** The cluster's groups in EC2, found by its tag (what an operator sees in the AWS console). */
async function clusterGroups(id: number) {
  const answer = await ec2().send(
    new DescribeSecurityGroupsCommand({
      Filters: [{ Name: 'tag:cumulus:cluster-id', Values: [String(id)] }],
    }),
  );
  return answer.SecurityGroups ?? [];
}

/** Every launched machine of the cluster as EC2 describes it. */
function launched(id: number, n: number) {
  return waitFor(`${n} machines launched`, async () => {
    const rows = await ts.server.deps.db
      .select()
      .from(instancesTable)
      .where(eq(instancesTable.clusterId, id));
    const ids = rows.flatMap((r) => {
      const data = r.backendData as { instanceId?: string } | null;
      return r.launchedAt && data?.instanceId ? [data.instanceId] : [];
    });
    if (ids.length < n) return undefined;
    const answer = await ec2().send(new DescribeInstancesCommand({ InstanceIds: ids }));
    return answer.Reservations!.flatMap((r) => r.Instances ?? []);
  });
}

describe("a cluster's own firewall on vm_aws", () => {
  it('is a security group of the cluster with exactly its rules, on every machine, removed when it stops', async () => {
    const res = await create(aws, {
      firewall_spec: {
        ingress: [
          { ports: [8786], cidr: '198.51.100.7/32' },
          { ports: [22, 8786], cidr: '203.0.113.0/24' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id;

    // Cluster details say what is open (the console's Instances tab shows it).
    const details = await aws.api.get(`/api/v2/clusters/account/${aws.slug}/id/${id}`);
    expect(details.status, details.text).toBe(200);
    expect(details.body.cluster_options.firewall_spec).toEqual({
      ingress: [
        { ports: [8786], cidr: '198.51.100.7/32' },
        { ports: [22, 8786], cidr: '203.0.113.0/24' },
      ],
    });

    const vms = await launched(id, 2);
    const [group] = await waitFor('the cluster group', async () => {
      const found = await clusterGroups(id);
      return found.length > 0 && found;
    });
    // The workspace's group stays (the control plane reaches dashboards through its CIDR).
    for (const vm of vms)
      expect(vm.SecurityGroups?.map((g) => g.GroupName).sort()).toEqual(
        [`cumulus-${aws.slug}`, group!.GroupName].sort(),
      );
    const workspaceGroup = vms[0]!.SecurityGroups!.find((g) => g.GroupName === `cumulus-${aws.slug}`)!;
    const [described] = (
      await ec2().send(new DescribeSecurityGroupsCommand({ GroupIds: [workspaceGroup.GroupId!] }))
    ).SecurityGroups!;
    expect(group!.VpcId).toBe(described!.VpcId);
    expect(group!.Tags).toEqual(expect.arrayContaining([{ Key: 'cumulus:role', Value: 'firewall' }]));

    const rules = (group!.IpPermissions ?? []).map((p) => ({
      protocol: p.IpProtocol,
      port: p.FromPort ?? null,
      to: p.ToPort ?? null,
      cidrs: (p.IpRanges ?? []).map((r) => r.CidrIp).sort(),
      groups: (p.UserIdGroupPairs ?? []).map((g) => g.GroupId),
    }));
    const sorted = rules.sort((a, b) => String(a.port).localeCompare(String(b.port)));
    expect(sorted).toEqual(
      [
        { protocol: 'tcp', port: 22, to: 22, cidrs: ['203.0.113.0/24'], groups: [] },
        {
          protocol: 'tcp',
          port: 8786,
          to: 8786,
          cidrs: ['198.51.100.7/32', '203.0.113.0/24'],
          groups: [],
        },
        { protocol: '-1', port: null, to: null, cidrs: [], groups: [group!.GroupId] },
      ].sort((a, b) => String(a.port).localeCompare(String(b.port))),
    );

    // A worker added later joins the same group (one group per cluster, not per launch).
    await aws.api.post(`/api/v2/workers/account/${aws.slug}/cluster/${id}/`, { n_workers: 1 });
    const three = await launched(id, 3);
    for (const vm of three) expect(vm.SecurityGroups?.map((g) => g.GroupId)).toContain(group!.GroupId);
    expect(await clusterGroups(id)).toHaveLength(1);

    expect((await aws.api.delete(`/api/v2/clusters/account/${aws.slug}/id/${id}`)).status).toBeLessThan(300);
    await waitFor('the cluster group removed', async () => (await clusterGroups(id)).length === 0, 60_000);
    const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, id));
    expect(row).toMatchObject({ state: 'stopped', infraState: 'destroyed' });
    // The workspace's group is the workspace's: it stays.
    const still = await ec2().send(
      new DescribeSecurityGroupsCommand({ GroupIds: [workspaceGroup.GroupId!] }),
    );
    expect(still.SecurityGroups).toHaveLength(1);
  }, 120_000);

  it('a group EC2 will not delete yet is retried until it goes: the cluster shows stopped meanwhile', async () => {
    const res = await create(
      aws,
      { firewall_spec: { ingress: [{ ports: [8786], cidr: '0.0.0.0/0' }] } },
      'held',
    );
    expect(res.status, res.text).toBe(201);
    const id = res.body.id;
    await launched(id, 2);
    expect(await clusterGroups(id)).toHaveLength(1);
    // EC2 still holds the group (a terminated instance's interface does, a while): moto never
    // refuses, the proxy answers as EC2 would.
    proxy.refuse.set('DeleteSecurityGroup', 'DependencyViolation');
    await aws.api.delete(`/api/v2/clusters/account/${aws.slug}/id/${id}`);
    const waiting = await waitFor('the stop waiting for the group', async () => {
      const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, id));
      return row?.reconcileError ? row : undefined;
    });
    expect(waiting).toMatchObject({ state: 'stopped', infraState: 'destroying' });
    expect(waiting.reconcileError).toContain("The cluster's security group is still in use by its machines");
    expect(await clusterGroups(id)).toHaveLength(1);
    proxy.refuse.delete('DeleteSecurityGroup');
    await waitFor(
      'the group gone at a later try',
      async () => (await clusterGroups(id)).length === 0,
      60_000,
    );
    await waitFor('the cluster settled', async () => {
      const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, id));
      return row?.infraState === 'destroyed' && row.reconcileError === null;
    });
  }, 120_000);

  it('a cluster without one runs in the workspace group alone and makes none', async () => {
    const res = await create(aws, {}, 'open');
    expect(res.status, res.text).toBe(201);
    const [vm] = await launched(res.body.id, 1);
    expect(vm!.SecurityGroups?.map((g) => g.GroupName)).toEqual([`cumulus-${aws.slug}`]);
    expect(await clusterGroups(res.body.id)).toEqual([]);
    const details = await aws.api.get(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
    expect(details.body.cluster_options.firewall_spec).toBeNull();
    await aws.api.delete(`/api/v2/clusters/account/${aws.slug}/id/${res.body.id}`);
  });

  it("the Python client's cluster opens the scheduler's port to the creator's address by default", async () => {
    const owner = (await findUserBy(ts.server.deps.db, 'id', awsUser.id))!;
    const { token } = await createToken(ts.server.deps.db, owner, { label: 'python-firewall' });
    // No VM boots here: the client gives up waiting, the cluster (and its group) go again.
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        PYTHON,
        [
          '-c',
          `import cumulus\ntry:\n    cumulus.Cluster(name="py-walled", n_workers=1, package_sync=False, timeout=3)\nexcept Exception as err:\n    print(type(err).__name__, err)`,
        ],
        {
          timeout: 120_000,
          env: pythonClientEnv(ts.url, token),
        },
        (_err, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(run.stdout, run.stderr).toContain(
      'ClusterCreationError Cluster py-walled was not ready after 3 s',
    );
    const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.name, 'py-walled'));
    expect((row!.options.options as Record<string, unknown>).firewall_spec).toEqual({
      ingress: [{ ports: [8786], cidr: '127.0.0.1/32' }],
    });
    await waitFor('its group gone with it', async () => (await clusterGroups(row!.id)).length === 0, 60_000);
  }, 180_000);

  it('refuses a bad rule with a 400 naming it, and writes nothing', async () => {
    const before = await clusterCount();
    const cases: [unknown, string][] = [
      [
        { ingress: [{ ports: [8786], cidr: '10.0.0.300/8' }] },
        'Enter an IPv4 CIDR block, like 203.0.113.7/32 (0.0.0.0/0 for everyone). (firewall_spec.ingress.0.cidr)',
      ],
      [
        { ingress: [{ ports: [8786], cidr: '198.51.100.7' }] },
        'Enter an IPv4 CIDR block, like 203.0.113.7/32 (0.0.0.0/0 for everyone). (firewall_spec.ingress.0.cidr)',
      ],
      [
        { ingress: [{ ports: [0, 8786], cidr: '0.0.0.0/0' }] },
        'A port is a whole number from 1 to 65535. (firewall_spec.ingress.0.ports.0)',
      ],
      [
        { ingress: [{ ports: [70000], cidr: '0.0.0.0/0' }] },
        'A port is a whole number from 1 to 65535. (firewall_spec.ingress.0.ports.0)',
      ],
      [
        { ingress: [{ ports: [], cidr: '0.0.0.0/0' }] },
        'A rule opens at least one port. (firewall_spec.ingress.0.ports)',
      ],
      [
        { ingress: Array.from({ length: 21 }, (_, i) => ({ ports: [1000 + i], cidr: '0.0.0.0/0' })) },
        "A cluster's firewall has at most 20 ingress rules. (firewall_spec.ingress)",
      ],
      [
        { ingress: 'everyone' },
        'ingress is a list of rules {"ports": [int, ...], "cidr": "a.b.c.d/n"}. (firewall_spec.ingress)',
      ],
    ];
    for (const [spec, message] of cases) {
      const res = await create(aws, { firewall_spec: spec }, 'bad-rule');
      expect(res.status, JSON.stringify(spec)).toBe(400);
      expect(res.body).toEqual({ 'options.firewall_spec': [message] });
    }
    const raw = await create(aws, { ingress: [{ ports: [22], cidr: '0.0.0.0/0' }] }, 'raw');
    expect(raw.status).toBe(400);
    expect(raw.body['options.ingress'][0]).toContain("Send a cluster's firewall as options.firewall_spec");
    expect(await clusterCount()).toBe(before);
  });

  it("the local backend refuses one, saying it has no firewall of Cumulus's, and says it has none", async () => {
    const res = await create(local, {
      firewall_spec: { ingress: [{ ports: [8786], cidr: '127.0.0.1/32' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body['options.firewall_spec']).toEqual([
      "This server's local backend runs instances as processes on its own machine, behind no firewall of Cumulus's: a cluster's own firewall rules are not supported.",
    ]);
    const options = await local.api.get(`/api/v1/${local.slug}/backend_options/`);
    expect(options.body.capabilities.firewall).toBe(false);
    const onAws = await aws.api.get(`/api/v1/${aws.slug}/backend_options/`);
    expect(onAws.body).toMatchObject({
      capabilities: { firewall: true },
      options: { scheduler_port: 8786 },
    });
  });
});
