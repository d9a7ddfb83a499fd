import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { GetInstanceProfileCommand, IAMClient } from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './helpers/api.js';
import { createUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The AWS setup of a workspace against moto_server: what Cumulus makes in the account (instance
 * profile, a security group with Dask's ports open to the allowed CIDR only), the VPC resources
 * it lists and checks, settings, and undoing it all; GCP settings and the docker registry.
 */
let moto: Moto;
let restoreEnv: () => void;
let ts: TestServer;
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

beforeAll(async () => {
  moto = await startMoto();
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
  ts = await startTestServer();
  api = ts.api.as((await createUser(ts)).key);
  slug = (await me()).slug;
}, 120_000);
afterAll(async () => {
  await ts?.close();
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
  it('global makes the instance profile and a security group open to the allowed CIDR only', async () => {
    const res = await api.post(setup('aws/global'), { region: 'us-east-1', allowed_cidr: '203.0.113.7/32' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: true, allowed_cidr: '203.0.113.7/32' });
    groupId = res.body.security_groups['us-east-1'].group_id;
    const rules = await rulesOf('us-east-1', groupId);
    expect(rules).toEqual(
      expect.arrayContaining([
        { port: 8786, cidrs: ['203.0.113.7/32'], groups: [] },
        { port: 8787, cidrs: ['203.0.113.7/32'], groups: [] },
        { port: null, cidrs: [], groups: [groupId] },
      ]),
    );
    expect(rules.flatMap((r) => r.cidrs)).not.toContain('0.0.0.0/0');
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const profile = await iam.send(
      new GetInstanceProfileCommand({ InstanceProfileName: res.body.instance_profile_name }),
    );
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

  it('regions: the default VPC, or a named one with its subnets checked; the workspace then runs on vm_aws', async () => {
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
    expect(east).toMatchObject({ region: 'us-east-1', default: true, security_group_id: groupId });
    expect(east.subnet_ids.length).toBeGreaterThan(0);
    expect(west).toMatchObject({ region: 'us-west-2', default: false, vpc_id: vpc, subnet_ids: [subnet] });
    expect(await rulesOf('us-west-2', west.security_group_id)).toEqual(
      expect.arrayContaining([{ port: 8786, cidrs: ['203.0.113.7/32'], groups: [] }]),
    );
    expect(await me()).toMatchObject({
      setup_complete: true,
      active_backend: 'vm_aws',
      configured_customer_hosted: true,
    });
    const options = await api.get(`/api/v1/${slug}/backend_options/`);
    expect(options.body).toMatchObject({
      backend: 'vm_aws',
      options: { provider_name: 'aws', region_name: 'us-east-1' },
    });
  });

  it('settings: defaults, checked changes, and a new allowed CIDR moves every cluster security group', async () => {
    const got = await api.get(setup('aws/settings'));
    expect(got.body).toMatchObject({
      worker_instance_types: ['m6i.xlarge', 'm5.xlarge'],
      spot: false,
      spot_on_demand_fallback: true,
      allowed_cidr: '203.0.113.7/32',
    });
    const bad = await api.patch(setup('aws/settings'), { worker_instance_types: ['x9.huge'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['worker_instance_types']);
    const badCidr = await api.patch(setup('aws/settings'), { allowed_cidr: '300.1.1.1/40' });
    expect(badCidr.body.allowed_cidr[0]).toBe('Enter an IPv4 CIDR block, like 203.0.113.7/32.');
    const res = await api.patch(setup('aws/settings'), {
      spot: true,
      disk_size_gib: 120,
      amis: { 'us-east-1': 'ami-0123456789abcdef0' },
      allowed_cidr: '198.51.100.0/24',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      spot: true,
      spot_on_demand_fallback: true,
      disk_size_gib: 120,
      allowed_cidr: '198.51.100.0/24',
    });
    const regions = (await api.get(setup('aws/regions'))).body.regions;
    for (const r of regions) {
      const rules = await rulesOf(r.region, r.security_group_id);
      expect(rules.find((x) => x.port === 8786)?.cidrs).toEqual(['198.51.100.0/24']);
    }
  });

  it('removing a region, then the whole setup, deletes what Cumulus made', async () => {
    const regions = (await api.get(setup('aws/regions'))).body.regions;
    const west = regions.find((r: { region: string }) => r.region === 'us-west-2');
    expect((await api.delete(setup('aws/region'), { query: { id: west.id } })).body).toEqual({
      deleted: true,
    });
    expect(
      (await api.get(setup('aws/regions'))).body.regions.map((r: { region: string }) => r.region),
    ).toEqual(['us-east-1']);
    expect((await api.delete(setup('aws'))).body).toEqual({ deleted: true });
    const left = await ec2('us-east-1').send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] }),
    );
    expect(left.SecurityGroups ?? []).toEqual([]);
    expect(await me()).toMatchObject({ setup_complete: false, active_backend: 'in_process' });
    expect((await api.get(setup('aws/global'))).body.configured).toBe(false);
  });
});

describe('GCP setup and the docker registry', () => {
  it('stores GCP network settings checked by shape once a key is there', async () => {
    expect((await api.post(setup('gcp/global'), {})).status).toBe(409);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await api.post(`/api/v2/cloud-credentials/${slug}/gcp`, {
      credentials: {
        type: 'service_account',
        project_id: 'cumulus-test-1',
        private_key_id: randomBytes(20).toString('hex'),
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: 'c@cumulus-test-1.iam.gserviceaccount.com',
      },
    });
    const bad = await api.post(setup('gcp/global'), { network: 'Not_A_Name' });
    expect(bad.status).toBe(400);
    const res = await api.post(setup('gcp/global'), { network: 'dask-net', target_tags: ['dask'] });
    expect(res.body).toMatchObject({
      configured: true,
      project_id: 'cumulus-test-1',
      network: 'dask-net',
      target_tags: ['dask'],
    });
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
    // Set up, but this server runs no clusters on GCP: new clusters stay on its own backend.
    expect(await me()).toMatchObject({ setup_complete: true, active_backend: 'in_process' });
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
