import {
  CreateSubnetCommand,
  CreateVpcCommand,
  DeleteInternetGatewayCommand,
  DeleteSubnetCommand,
  DeleteVpcCommand,
  DescribeInternetGatewaysCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  DetachInternetGatewayCommand,
  EC2Client,
  RegisterImageCommand,
} from '@aws-sdk/client-ec2';
import { GetInstanceProfileCommand, IAMClient } from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePolicy } from '../src/domains/cloud/role-template.js';
import type { Api } from './helpers/api.js';
import { createUser } from './helpers/factories.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { awsEnvironment, type Ec2Proxy, type Moto, startEc2Proxy, startMoto } from './helpers/moto.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The AWS setup of a workspace against moto_server: what Cumulus makes in the account (instance
 * profile, a security group with Dask's ports open to the allowed CIDR only), the VPC resources
 * it lists and checks, settings, and undoing it all; GCP settings and the docker registry. The
 * server's AWS calls go through the tests' proxy, which records them: each must be one the
 * CloudFormation role of role assumption allows.
 */
let moto: Moto;
let proxy: Ec2Proxy;
let restoreEnv: () => void;
let ts: TestServer;
let rig: GceRig;
let api: Api;
let slug: string;
const ec2 = (region: string) => new EC2Client({ region, endpoint: moto.url, credentials: moto.keys });
const setup = (path: string) => `/api/v2/setup/account/${slug}/${path}`;
const me = async () => (await api.get('/api/v2/user/me')).body.default_account;

async function rulesOf(region: string, groupId: string) {
  const g = (await ec2(region).send(new DescribeSecurityGroupsCommand({ GroupIds: [groupId] })))
    .SecurityGroups![0]!;
  return g.IpPermissions!.map((p) => ({
    port: p.FromPort ?? null,
    cidrs: (p.IpRanges ?? []).map((r) => r.CidrIp),
    groups: (p.UserIdGroupPairs ?? []).map((u) => u.GroupId),
  }));
}

/** A region whose default VPC its owner deleted (common in enterprise accounts). */
async function deleteDefaultVpc(region: string) {
  const c = ec2(region);
  const vpc = (await c.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] })))
    .Vpcs![0]!.VpcId!;
  const subnets = await c.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc] }] }));
  for (const sn of subnets.Subnets ?? []) await c.send(new DeleteSubnetCommand({ SubnetId: sn.SubnetId }));
  const gateways = await c.send(
    new DescribeInternetGatewaysCommand({ Filters: [{ Name: 'attachment.vpc-id', Values: [vpc] }] }),
  );
  for (const g of gateways.InternetGateways ?? []) {
    await c.send(new DetachInternetGatewayCommand({ InternetGatewayId: g.InternetGatewayId, VpcId: vpc }));
    await c.send(new DeleteInternetGatewayCommand({ InternetGatewayId: g.InternetGatewayId }));
  }
  await c.send(new DeleteVpcCommand({ VpcId: vpc }));
}

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startEc2Proxy(moto.url);
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  rig = await new GceRig().start();
  ts = await startTestServer(rig.env());
  api = ts.api.as((await createUser(ts)).key);
  slug = (await me()).slug;
}, 120_000);
afterAll(async () => {
  await ts?.close();
  await rig?.stop();
  await proxy?.close();
  await moto?.stop();
  restoreEnv?.();
});

describe('AWS setup', () => {
  it('needs credentials first', async () => {
    const res = await api.post(setup('aws/global'), {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NO_CLOUD_SETUP');
    const saved = await api.post(`/api/v2/cloud-credentials/${slug}/aws`, {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
    });
    expect(saved.status).toBe(200);
  });

  let groupId: string;
  let profileName: string;
  it('global makes the instance profile and a security group open to the allowed CIDR only (the one set before, if any)', async () => {
    // An allowed CIDR set in the settings before is the one global uses.
    expect((await api.patch(setup('aws/settings'), { allowed_cidr: '203.0.113.7/32' })).status).toBe(200);
    const res = await api.post(setup('aws/global'), { region: 'us-east-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: true, allowed_cidr: '203.0.113.7/32' });
    groupId = res.body.security_groups['us-east-1'].group_id;
    profileName = res.body.instance_profile_name;
    const rules = await rulesOf('us-east-1', groupId);
    expect(rules).toEqual(
      expect.arrayContaining([
        { port: 8786, cidrs: ['203.0.113.7/32'], groups: [] },
        { port: 8787, cidrs: ['203.0.113.7/32'], groups: [] },
        // SSH with the cluster's key, to the same CIDR only.
        { port: 22, cidrs: ['203.0.113.7/32'], groups: [] },
        { port: null, cidrs: [], groups: [groupId] },
      ]),
    );
    expect(rules.flatMap((r) => r.cidrs)).not.toContain('0.0.0.0/0');
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const profile = await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: profileName }));
    expect(profile.InstanceProfile!.Arn).toBe(res.body.instance_profile_arn);
    expect(profile.InstanceProfile!.Roles).toHaveLength(1);
    // Again: found, not made twice.
    const again = await api.post(setup('aws/global'), {
      region: 'us-east-1',
      allowed_cidr: '203.0.113.7/32',
    });
    expect(again.body.security_groups['us-east-1'].group_id).toBe(groupId);
    expect((await me()).setup_complete).toBe(false);
  });

  it('lists the VPCs, zones, subnets and security groups the account has', async () => {
    const vpcs = await api.get(setup('aws/available-vpcs/us-east-1'));
    expect(vpcs.status).toBe(200);
    const def = vpcs.body.vpcs.find((v: { is_default: boolean }) => v.is_default);
    expect(def.vpc_id).toMatch(/^vpc-/);
    const subnets = await api.get(setup('aws/available-subnets'), {
      query: { region: 'us-east-1', vpc_id: def.vpc_id },
    });
    expect(subnets.body.subnets.length).toBeGreaterThan(0);
    expect(subnets.body.subnets.every((s: { vpc_id: string }) => s.vpc_id === def.vpc_id)).toBe(true);
    const azs = await api.get(setup('aws/available-azs'), { query: { region: 'us-east-1' } });
    expect(azs.body.availability_zones.map((z: { name: string }) => z.name)).toContain('us-east-1a');
    const groups = await api.get(setup('aws/available-security-groups'), {
      query: { region: 'us-east-1', vpc_id: def.vpc_id },
    });
    expect(groups.body.security_groups.map((g: { group_id: string }) => g.group_id)).toContain(groupId);
    const bad = await api.get(setup('aws/available-subnets'), {
      query: { region: 'us-east-1', vpc_id: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['vpc_id']);
  });

  let westImage: string;
  it('regions: the default VPC, or a named one with its subnets checked, and the machine image found by name', async () => {
    const vpc = (await ec2('us-west-2').send(new CreateVpcCommand({ CidrBlock: '10.42.0.0/16' }))).Vpc!
      .VpcId!;
    const subnet = (
      await ec2('us-west-2').send(
        new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.42.1.0/24', AvailabilityZone: 'us-west-2a' }),
      )
    ).Subnet!.SubnetId!;
    const other = (await ec2('us-west-2').send(new CreateVpcCommand({ CidrBlock: '10.43.0.0/16' }))).Vpc!
      .VpcId!;
    const otherSubnet = (
      await ec2('us-west-2').send(new CreateSubnetCommand({ VpcId: other, CidrBlock: '10.43.1.0/24' }))
    ).Subnet!.SubnetId!;
    // The image an operator published for instances (CUMULUS_AWS_AMI_NAME: cumulus-instance-*).
    westImage = (
      await ec2('us-west-2').send(
        new RegisterImageCommand({
          Name: 'cumulus-instance-2025-01',
          RootDeviceName: '/dev/xvda',
          Architecture: 'x86_64',
          VirtualizationType: 'hvm',
        }),
      )
    ).ImageId!;

    const wrong = await api.post(setup('aws/regions'), {
      regions: [{ region: 'us-west-2', vpc_id: vpc, subnet_ids: [otherSubnet] }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body['regions.0.subnet_ids'][0]).toBe(`Subnet ${otherSubnet} is not in ${vpc}.`);
    expect((await api.get(setup('aws/regions'))).body.regions).toEqual([]);

    const res = await api.post(setup('aws/regions'), {
      regions: [
        { region: 'us-east-1', default: true },
        { region: 'us-west-2', vpc_id: vpc, subnet_ids: [subnet] },
      ],
    });
    expect(res.status).toBe(200);
    const [east, west] = res.body.regions;
    expect(east).toMatchObject({
      region: 'us-east-1',
      default: true,
      security_group_id: groupId,
      ami_id: null,
      problem:
        'No machine image for us-east-1: set one in the AWS settings (an AMI with python3 and distributed).',
    });
    expect(east.subnet_ids.length).toBeGreaterThan(0);
    expect(west).toMatchObject({
      region: 'us-west-2',
      default: false,
      vpc_id: vpc,
      subnet_ids: [subnet],
      ami_id: westImage,
      problem: null,
    });
    expect(await rulesOf('us-west-2', west.security_group_id)).toEqual(
      expect.arrayContaining([{ port: 8786, cidrs: ['203.0.113.7/32'], groups: [] }]),
    );
    // Nothing can launch in the default region yet: the workspace stays on this server.
    expect(await me()).toMatchObject({ setup_complete: false, active_backend: 'in_process' });
  });

  it('a machine image for the default region makes the workspace run clusters on vm_aws', async () => {
    const image = (
      await ec2('us-east-1').send(
        new RegisterImageCommand({
          Name: 'my-dask-image',
          RootDeviceName: '/dev/xvda',
          VirtualizationType: 'hvm',
        }),
      )
    ).ImageId!;
    const res = await api.patch(setup('aws/settings'), {
      amis: { 'us-east-1': image, 'us-west-2': westImage },
    });
    expect(res.status).toBe(200);
    expect(await me()).toMatchObject({
      setup_complete: true,
      active_backend: 'vm_aws',
      configured_customer_hosted: true,
    });
    expect((await api.get(setup('aws/regions'))).body.regions[0]).toMatchObject({
      ami_id: image,
      problem: null,
    });
    const options = await api.get(`/api/v1/${slug}/backend_options/`);
    expect(options.body).toMatchObject({
      backend: 'vm_aws',
      options: { provider_name: 'aws', region_name: 'us-east-1' },
    });
  });

  it('a region without a default VPC is set up in the VPC chosen', async () => {
    await deleteDefaultVpc('ca-central-1');
    const none = await api.post(setup('aws/global'), { region: 'ca-central-1' });
    expect(none.status).toBe(400);
    expect(none.body.vpc_id[0]).toBe('ca-central-1 has no default VPC: choose one of its VPCs.');
    const missing = await api.post(setup('aws/global'), {
      region: 'ca-central-1',
      vpc_id: 'vpc-0123456789abcdef0',
    });
    expect(missing.body.vpc_id[0]).toBe('There is no VPC vpc-0123456789abcdef0 in ca-central-1.');

    const vpc = (await ec2('ca-central-1').send(new CreateVpcCommand({ CidrBlock: '10.50.0.0/16' }))).Vpc!
      .VpcId!;
    const subnet = (
      await ec2('ca-central-1').send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.50.1.0/24' }))
    ).Subnet!.SubnetId!;
    const global = await api.post(setup('aws/global'), { region: 'ca-central-1', vpc_id: vpc });
    expect(global.status).toBe(200);
    expect(global.body.security_groups['ca-central-1'].vpc_id).toBe(vpc);
    const regions = await api.post(setup('aws/regions'), {
      regions: [{ region: 'ca-central-1', vpc_id: vpc }],
    });
    expect(regions.status).toBe(200);
    expect(regions.body.regions.find((r: { region: string }) => r.region === 'ca-central-1')).toMatchObject({
      vpc_id: vpc,
      subnet_ids: [subnet],
      security_group_id: global.body.security_groups['ca-central-1'].group_id,
    });
  });

  it('a new allowed CIDR moves every cluster security group, from settings or from global', async () => {
    const groups = async () =>
      Object.entries(
        (await api.get(setup('aws/global'))).body.security_groups as Record<string, { group_id: string }>,
      );
    expect((await groups()).map(([r]) => r).sort()).toEqual(['ca-central-1', 'us-east-1', 'us-west-2']);
    const res = await api.patch(setup('aws/settings'), { allowed_cidr: '198.51.100.0/24' });
    expect(res.body.allowed_cidr).toBe('198.51.100.0/24');
    for (const [region, g] of await groups())
      expect((await rulesOf(region, g.group_id)).find((x) => x.port === 8786)?.cidrs).toEqual([
        '198.51.100.0/24',
      ]);
    const again = await api.post(setup('aws/global'), { region: 'us-east-1', allowed_cidr: '192.0.2.0/24' });
    expect(again.status).toBe(200);
    for (const [region, g] of await groups())
      for (const port of [8787, 22])
        expect((await rulesOf(region, g.group_id)).find((x) => x.port === port)?.cidrs).toEqual([
          '192.0.2.0/24',
        ]);
    expect((await api.get(setup('aws/settings'))).body.allowed_cidr).toBe('192.0.2.0/24');
  });

  it('settings: defaults and checked changes', async () => {
    const got = await api.get(setup('aws/settings'));
    expect(got.body).toMatchObject({
      worker_instance_types: ['m6i.xlarge', 'm5.xlarge'],
      spot: false,
      spot_on_demand_fallback: true,
    });
    const bad = await api.patch(setup('aws/settings'), { worker_instance_types: ['x9.huge'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['worker_instance_types']);
    const badCidr = await api.patch(setup('aws/settings'), { allowed_cidr: '300.1.1.1/40' });
    expect(badCidr.body.allowed_cidr[0]).toBe('Enter an IPv4 CIDR block, like 203.0.113.7/32.');
    const res = await api.patch(setup('aws/settings'), { spot: true, disk_size_gib: 120 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ spot: true, spot_on_demand_fallback: true, disk_size_gib: 120 });
  });

  it('removing a region, then the whole setup, deletes what Cumulus made; what AWS refuses to remove is said, nothing forgotten', async () => {
    const regions = (await api.get(setup('aws/regions'))).body.regions;
    for (const r of regions.filter((x: { default: boolean }) => !x.default))
      expect((await api.delete(setup('aws/region'), { query: { id: r.id } })).body).toEqual({
        deleted: true,
      });
    expect(
      (await api.get(setup('aws/regions'))).body.regions.map((r: { region: string }) => r.region),
    ).toEqual(['us-east-1']);

    proxy.refuse.set('DeleteInstanceProfile', 'AccessDenied');
    try {
      const refused = await api.delete(setup('aws'));
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toBe(
        `AWS refused to remove what Cumulus made in the account (instance profile and role ${profileName}: AccessDenied: User is not authorized to perform: iam:DeleteInstanceProfile). Nothing was forgotten: fix the permissions and try again.`,
      );
      expect((await api.get(setup('aws/global'))).body.configured).toBe(true);
    } finally {
      proxy.refuse.clear();
    }
    expect((await api.delete(setup('aws'))).body).toEqual({ deleted: true, left_in_account: [] });
    const left = await ec2('us-east-1').send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] }),
    );
    expect(left.SecurityGroups ?? []).toEqual([]);
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    await expect(
      iam.send(new GetInstanceProfileCommand({ InstanceProfileName: profileName })),
    ).rejects.toThrow(/not found|NoSuchEntity/i);
    expect(await me()).toMatchObject({ setup_complete: false, active_backend: 'in_process' });
    expect((await api.get(setup('aws/global'))).body.configured).toBe(false);
  });

  it("the CloudFormation role allows every AWS call setup made, and no IAM call outside the workspace's instance role", async () => {
    const vars: Record<string, string> = {
      'AWS::Partition': 'aws',
      'AWS::AccountId': moto.account,
      InstanceRoleName: profileName,
    };
    const resolve = (r: unknown): string[] =>
      Array.isArray(r)
        ? r.flatMap(resolve)
        : typeof r === 'string'
          ? [r]
          : [(r as { 'Fn::Sub': string })['Fn::Sub'].replace(/\$\{([^}]+)\}/g, (_, k: string) => vars[k]!)];
    const glob = (pattern: string, value: string) =>
      new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);
    const statements = rolePolicy().Statement;
    const allows = (action: string, resource: string) =>
      statements.some(
        (st) =>
          st.Effect === 'Allow' &&
          [st.Action].flat().some((a) => glob(a, action)) &&
          resolve(st.Resource).some((r) => glob(r, resource)),
      );
    const arn = (kind: string, name: string) => `arn:aws:iam::${moto.account}:${kind}/${name}`;
    const made = proxy.requests.filter((r) => r.service === 'ec2' || r.service === 'iam');
    expect(made.map((r) => r.action)).toEqual(
      expect.arrayContaining(['CreateRole', 'CreateInstanceProfile', 'CreateSecurityGroup', 'DeleteRole']),
    );
    for (const r of made) {
      const action = `${r.service}:${r.action}`;
      const name = r.params.get('InstanceProfileName') ?? r.params.get('RoleName');
      const resource =
        r.service === 'iam' && name
          ? arn(r.params.has('InstanceProfileName') ? 'instance-profile' : 'role', name)
          : '*';
      expect({ action, resource, allowed: allows(action, resource) }).toEqual({
        action,
        resource,
        allowed: true,
      });
    }
    // Launching passes the instance role to EC2: that one role, and no other.
    expect(allows('iam:PassRole', arn('role', profileName))).toBe(true);
    expect(allows('iam:PassRole', arn('role', 'Admin'))).toBe(false);
    expect(allows('iam:CreateRole', arn('role', 'Admin'))).toBe(false);
    expect(allows('iam:PutRolePolicy', arn('role', profileName))).toBe(false);
    expect(allows('iam:AttachRolePolicy', arn('role', profileName))).toBe(false);
    for (const st of statements)
      if ([st.Action].flat().some((a) => a.startsWith('iam:'))) expect(st.Resource).not.toBe('*');
  });
});

describe('AWS setup without credentials', () => {
  it('removing the setup after the credentials says what stays in the account', async () => {
    const keys = {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
    };
    expect((await api.post(`/api/v2/cloud-credentials/${slug}/aws`, keys)).status).toBe(200);
    const global = await api.post(setup('aws/global'), {
      region: 'us-east-1',
      allowed_cidr: '203.0.113.9/32',
    });
    const group = global.body.security_groups['us-east-1'].group_id;
    expect((await api.delete(`/api/v2/cloud-credentials/${slug}/aws`)).body).toEqual({ deleted: true });
    expect((await api.delete(setup('aws'))).body).toEqual({
      deleted: true,
      left_in_account: [
        `security group ${group} in us-east-1`,
        `instance profile and role ${global.body.instance_profile_name}`,
      ],
    });
    expect((await api.get(setup('aws/global'))).body.configured).toBe(false);
  });
});

describe('GCP setup and the docker registry', () => {
  it('stores GCP network settings checked by shape once a key is there', async () => {
    expect((await api.post(setup('gcp/global'), {})).status).toBe(409);
    const saved = await api.post(`/api/v2/cloud-credentials/${slug}/gcp`, {
      credentials: rig.tokens.createKey('c', 'cumulus-test-1'),
    });
    expect(saved.status).toBe(200);
    const bad = await api.post(setup('gcp/global'), { network: 'Not_A_Name' });
    expect(bad.status).toBe(400);
    const res = await api.post(setup('gcp/global'), { network: 'dask-net', target_tags: ['dask'] });
    expect(res.body).toMatchObject({
      configured: true,
      project_id: 'cumulus-test-1',
      network: 'dask-net',
      target_tags: ['dask'],
    });
    // The bucket vm_gcp keeps the workspace's archives in: named, made by its first build (not here).
    expect(res.body.archive_bucket).toMatch(/^cumulus-cumulus-test-1-w\d+-[0-9a-f]{6}$/);
    expect(rig.storage.buckets.size).toBe(0);
    const regions = await api.post(setup('gcp/regions'), {
      regions: [{ region: 'us-east1', subnet: 'dask-sub' }],
    });
    expect(regions.body.regions[0]).toMatchObject({
      region: 'us-east1',
      default: true,
      network: 'dask-net',
      subnet: 'dask-sub',
    });
    expect((await api.get(setup('gcp/available-networks'))).body.items).toEqual(['default', 'dask-net']);
    expect(
      (await api.get(setup('gcp/available-subnets'), { query: { region: 'us-east1' } })).body.items,
    ).toEqual(['dask-sub']);
    expect((await api.get(setup('gcp/available-target-tags'))).body.items).toEqual(['dask']);
    const settings = await api.patch(setup('gcp/settings'), {
      worker_instance_types: ['n2-standard-4'],
      spot: true,
    });
    expect(settings.body).toMatchObject({ worker_instance_types: ['n2-standard-4'], spot: true });
    expect((await api.patch(setup('gcp/settings'), { worker_instance_types: ['m6i.xlarge'] })).status).toBe(
      400,
    );
    // The zone launches try first is one of a set-up region's, else refused at its field.
    expect((await api.patch(setup('gcp/settings'), { zone: 'us-east1-d' })).body.zone).toBe('us-east1-d');
    const elsewhere = await api.patch(setup('gcp/settings'), { zone: 'europe-west1-b' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.zone[0]).toBe(
      '"europe-west1-b" is not a zone of the region set up for this workspace (us-east1).',
    );
    // Set up: new clusters run on Compute Engine (test/gce-clusters.test.ts runs one).
    expect(await me()).toMatchObject({ setup_complete: true, active_backend: 'vm_gcp' });
    expect((await api.delete(setup('gcp'))).body).toEqual({ deleted: true });
  });

  it('keeps the registry password sealed and answers only that there is one', async () => {
    const res = await api.patch(setup('docker'), {
      registry_type: 'dockerhub',
      registry_uri: 'docker.io',
      username: 'dask',
      password: 'registry-secret',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ registry_type: 'dockerhub', username: 'dask', has_password: true });
    expect(JSON.stringify((await api.get(setup('docker'))).body)).not.toContain('registry-secret');
    const cleared = await api.patch(setup('docker'), { password: '' });
    expect(cleared.body.has_password).toBe(false);
    expect((await api.patch(setup('docker'), { registry_type: 'floppy' })).status).toBe(400);
  });
});
