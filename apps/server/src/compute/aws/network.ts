import type { EC2Client, IpPermission } from '@aws-sdk/client-ec2';
import type { IAMClient } from '@aws-sdk/client-iam';
import { awsCode } from './clients.js';
import { ec2 as ec2Sdk, iam as iamSdk } from './sdk.js';

/**
 * What clusters need in a workspace's AWS account, and what it has: VPCs, zones, subnets and
 * security groups to choose from; the security group and instance profile Cumulus makes.
 */

/**
 * Dask's scheduler and dashboard ports and a notebook cluster's Jupyter (its token known only to
 * the control plane): the only ones opened, and only to the allowed CIDR.
 */
export const CLUSTER_PORTS = [8786, 8787, 8888] as const;
/** SSH to the machines (the cluster's key reaches them at boot: user-data.ts), open to the same CIDR. */
export const SSH_PORT = 22;
const OPENED = [...CLUSTER_PORTS, SSH_PORT];

const nameOf = (tags: { Key?: string; Value?: string }[] | undefined) =>
  tags?.find((t) => t.Key === 'Name')?.Value ?? null;

export async function listVpcs(ec2: EC2Client) {
  const answer = await ec2.send(new ec2Sdk.DescribeVpcsCommand({}));
  return (answer.Vpcs ?? []).map((v) => ({
    vpc_id: v.VpcId ?? '',
    cidr_block: v.CidrBlock ?? '',
    is_default: v.IsDefault ?? false,
    name: nameOf(v.Tags),
  }));
}

export async function listAvailabilityZones(ec2: EC2Client) {
  const answer = await ec2.send(new ec2Sdk.DescribeAvailabilityZonesCommand({}));
  return (answer.AvailabilityZones ?? []).map((z) => ({
    name: z.ZoneName ?? '',
    zone_id: z.ZoneId ?? '',
    state: z.State ?? '',
  }));
}

const vpcFilter = (vpcId?: string) => (vpcId ? [{ Name: 'vpc-id', Values: [vpcId] }] : undefined);

export async function listSubnets(ec2: EC2Client, vpcId?: string) {
  const answer = await ec2.send(new ec2Sdk.DescribeSubnetsCommand({ Filters: vpcFilter(vpcId) }));
  return (answer.Subnets ?? []).map((s) => ({
    subnet_id: s.SubnetId ?? '',
    vpc_id: s.VpcId ?? '',
    availability_zone: s.AvailabilityZone ?? '',
    cidr_block: s.CidrBlock ?? '',
    available_ips: s.AvailableIpAddressCount ?? 0,
    map_public_ip_on_launch: s.MapPublicIpOnLaunch ?? false,
    name: nameOf(s.Tags),
  }));
}

export async function listSecurityGroups(ec2: EC2Client, vpcId?: string) {
  const answer = await ec2.send(new ec2Sdk.DescribeSecurityGroupsCommand({ Filters: vpcFilter(vpcId) }));
  return (answer.SecurityGroups ?? []).map((g) => ({
    group_id: g.GroupId ?? '',
    group_name: g.GroupName ?? '',
    vpc_id: g.VpcId ?? '',
    description: g.Description ?? '',
  }));
}

/** The newest available image with this name (wildcards allowed), of this owner and architecture if named. */
export async function findImage(
  ec2: EC2Client,
  name: string,
  owner: string | null,
  architecture?: 'x86_64' | 'arm64',
): Promise<string | null> {
  const answer = await ec2.send(
    new ec2Sdk.DescribeImagesCommand({
      Filters: [
        { Name: 'name', Values: [name] },
        { Name: 'state', Values: ['available'] },
        ...(architecture ? [{ Name: 'architecture', Values: [architecture] }] : []),
      ],
      ...(owner && { Owners: [owner] }),
    }),
  );
  const newest = (answer.Images ?? [])
    .filter((i) => i.ImageId)
    .sort((a, b) => (b.CreationDate ?? '').localeCompare(a.CreationDate ?? ''))[0];
  return newest?.ImageId ?? null;
}

/** The VPC to use when none is named: the region's default one. */
export async function defaultVpcId(ec2: EC2Client): Promise<string | null> {
  const answer = await ec2.send(
    new ec2Sdk.DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }),
  );
  return answer.Vpcs?.[0]?.VpcId ?? null;
}

const portRules = (cidr: string, ports: readonly number[] = OPENED): IpPermission[] =>
  ports.map((port) => ({
    IpProtocol: 'tcp',
    FromPort: port,
    ToPort: port,
    IpRanges: [
      {
        CidrIp: cidr,
        Description:
          port === SSH_PORT ? 'SSH with the cluster key (Cumulus)' : 'Dask scheduler and dashboard (Cumulus)',
      },
    ],
  }));

const ignoring = (code: string) => (err: unknown) => {
  if (awsCode(err) !== code) throw err;
};

/**
 * The cluster security group of a VPC, made once and found again by name: Dask's ports and SSH open to
 * the allowed CIDR only, and every port open between the cluster's own machines.
 */
export async function ensureSecurityGroup(
  ec2: EC2Client,
  options: { vpcId: string; name: string; allowedCidr: string; tags: Record<string, string> },
): Promise<{ groupId: string; created: boolean }> {
  const found = await ec2.send(
    new ec2Sdk.DescribeSecurityGroupsCommand({
      Filters: [
        { Name: 'vpc-id', Values: [options.vpcId] },
        { Name: 'group-name', Values: [options.name] },
      ],
    }),
  );
  const existing = found.SecurityGroups?.[0]?.GroupId;
  if (existing) {
    // A group made before clusters served SSH gets port 22 now (a repeat changes nothing).
    await ec2
      .send(
        new ec2Sdk.AuthorizeSecurityGroupIngressCommand({
          GroupId: existing,
          IpPermissions: portRules(options.allowedCidr, [SSH_PORT]),
        }),
      )
      .catch(ignoring('InvalidPermission.Duplicate'));
    return { groupId: existing, created: false };
  }
  const made = await ec2.send(
    new ec2Sdk.CreateSecurityGroupCommand({
      GroupName: options.name,
      Description: 'Dask clusters run by Cumulus',
      VpcId: options.vpcId,
      TagSpecifications: [
        {
          ResourceType: 'security-group',
          Tags: Object.entries({ Name: options.name, ...options.tags }).map(([Key, Value]) => ({
            Key,
            Value,
          })),
        },
      ],
    }),
  );
  const groupId = made.GroupId!;
  await ec2
    .send(
      new ec2Sdk.AuthorizeSecurityGroupIngressCommand({
        GroupId: groupId,
        IpPermissions: [
          ...portRules(options.allowedCidr),
          { IpProtocol: '-1', UserIdGroupPairs: [{ GroupId: groupId, Description: 'Within the cluster' }] },
        ],
      }),
    )
    .catch(ignoring('InvalidPermission.Duplicate'));
  return { groupId, created: true };
}

/**
 * Moves the opened ports of a security group from one allowed CIDR to another, a port at a time:
 * EC2 refuses a whole call for one rule already there (or already gone), as 22 may be in a group
 * made before clusters served SSH.
 */
export async function changeAllowedCidr(ec2: EC2Client, groupId: string, from: string, to: string) {
  if (from === to) return;
  for (const port of OPENED)
    await ec2
      .send(
        new ec2Sdk.AuthorizeSecurityGroupIngressCommand({
          GroupId: groupId,
          IpPermissions: portRules(to, [port]),
        }),
      )
      .catch(ignoring('InvalidPermission.Duplicate'));
  for (const port of OPENED)
    await ec2
      .send(
        new ec2Sdk.RevokeSecurityGroupIngressCommand({
          GroupId: groupId,
          IpPermissions: portRules(from, [port]),
        }),
      )
      .catch(ignoring('InvalidPermission.NotFound'));
}

/** The ports' allowed CIDRs a security group has now (what a test or the settings page checks). */
export async function allowedCidrsOf(ec2: EC2Client, groupId: string): Promise<Record<number, string[]>> {
  const answer = await ec2.send(new ec2Sdk.DescribeSecurityGroupsCommand({ GroupIds: [groupId] }));
  const out: Record<number, string[]> = {};
  for (const p of answer.SecurityGroups?.[0]?.IpPermissions ?? [])
    if (p.FromPort !== undefined) out[p.FromPort] = (p.IpRanges ?? []).map((r) => r.CidrIp ?? '');
  return out;
}

export async function deleteSecurityGroup(ec2: EC2Client, groupId: string) {
  await ec2
    .send(new ec2Sdk.DeleteSecurityGroupCommand({ GroupId: groupId }))
    .catch(ignoring('InvalidGroup.NotFound'));
}

const EC2_TRUST = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});

/** The instance profile cluster machines run with (a role EC2 may assume), made once. */
export async function ensureInstanceProfile(iam: IAMClient, name: string) {
  const existing = await iam
    .send(new iamSdk.GetInstanceProfileCommand({ InstanceProfileName: name }))
    .catch(ignoring('NoSuchEntity'));
  if (existing?.InstanceProfile?.Arn)
    return { name, arn: existing.InstanceProfile.Arn, roleName: name, created: false };
  await iam
    .send(new iamSdk.CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: EC2_TRUST, Path: '/' }))
    .catch(ignoring('EntityAlreadyExists'));
  const made = await iam.send(
    new iamSdk.CreateInstanceProfileCommand({ InstanceProfileName: name, Path: '/' }),
  );
  await iam
    .send(new iamSdk.AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: name }))
    .catch(ignoring('LimitExceeded'));
  return { name, arn: made.InstanceProfile!.Arn!, roleName: name, created: true };
}

/** Removes the instance profile (its roles first) and the role; what is gone already is skipped. */
export async function deleteInstanceProfile(iam: IAMClient, name: string) {
  const profile = await iam
    .send(new iamSdk.GetInstanceProfileCommand({ InstanceProfileName: name }))
    .catch(ignoring('NoSuchEntity'));
  if (profile?.InstanceProfile) {
    for (const role of profile.InstanceProfile.Roles ?? [])
      await iam
        .send(
          new iamSdk.RemoveRoleFromInstanceProfileCommand({
            InstanceProfileName: name,
            RoleName: role.RoleName,
          }),
        )
        .catch(ignoring('NoSuchEntity'));
    await iam
      .send(new iamSdk.DeleteInstanceProfileCommand({ InstanceProfileName: name }))
      .catch(ignoring('NoSuchEntity'));
  }
  await iam.send(new iamSdk.DeleteRoleCommand({ RoleName: name })).catch(ignoring('NoSuchEntity'));
}
