import type { EC2Client, IpPermission } from '@aws-sdk/client-ec2';
import { BackendError, type FirewallSpec, retryable } from '../backend.js';
import { awsCode } from './clients.js';
import type { Ec2Placement } from './placement.js';
import { classify, TAG } from './run-instances.js';
import { ec2 as ec2Sdk } from './sdk.js';

/**
 * A cluster's own firewall on vm_aws: a security group per cluster, in the workspace's VPC, with
 * exactly the cluster's ingress rules (`firewall_spec`) and every port open between its own
 * machines. Its machines get it besides the workspace's group (which lets the control plane reach
 * dashboards); it goes when the cluster stops.
 */

/**
 * The group's name: per cluster and per workspace group, so two control planes sharing an account
 * (each with its own workspace group) never take each other's.
 */
const groupName = (clusterId: number, p: Ec2Placement, vpcId: string) =>
  `cumulus-cluster-${clusterId}-${p.securityGroupId ?? vpcId}`;

const ignoring = (code: string) => (err: unknown) => {
  if (awsCode(err) !== code) throw err;
};

/** The VPC the cluster's machines run in: the workspace group's, else its first subnet's, else the default one. */
async function vpcOf(ec2: EC2Client, p: Ec2Placement): Promise<string> {
  if (p.securityGroupId) {
    const g = await ec2.send(new ec2Sdk.DescribeSecurityGroupsCommand({ GroupIds: [p.securityGroupId] }));
    const vpc = g.SecurityGroups?.[0]?.VpcId;
    if (vpc) return vpc;
  }
  if (p.subnetIds[0]) {
    const s = await ec2.send(new ec2Sdk.DescribeSubnetsCommand({ SubnetIds: [p.subnetIds[0]] }));
    const vpc = s.Subnets?.[0]?.VpcId;
    if (vpc) return vpc;
  }
  const d = await ec2.send(
    new ec2Sdk.DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }),
  );
  const vpc = d.Vpcs?.[0]?.VpcId;
  if (!vpc) throw retryable(`${p.region} has no VPC for the cluster's security group.`);
  return vpc;
}

/** The inbound rules of a cluster's group: each port of each rule to its CIDR, and all traffic from the group itself. */
export function ingressPermissions(spec: FirewallSpec, groupId: string): IpPermission[] {
  const byPort = new Map<number, string[]>();
  for (const rule of spec.ingress)
    for (const port of rule.ports) byPort.set(port, [...new Set([...(byPort.get(port) ?? []), rule.cidr])]);
  return [
    ...[...byPort].map(([port, cidrs]) => ({
      IpProtocol: 'tcp',
      FromPort: port,
      ToPort: port,
      IpRanges: cidrs.map((CidrIp) => ({ CidrIp, Description: "The cluster's firewall (Cumulus)" })),
    })),
    {
      IpProtocol: '-1',
      UserIdGroupPairs: [{ GroupId: groupId, Description: "Between the cluster's machines" }],
    },
  ];
}

async function findGroup(ec2: EC2Client, name: string, vpcId?: string) {
  const found = await ec2.send(
    new ec2Sdk.DescribeSecurityGroupsCommand({
      Filters: [
        { Name: 'group-name', Values: [name] },
        ...(vpcId ? [{ Name: 'vpc-id', Values: [vpcId] }] : []),
      ],
    }),
  );
  return found.SecurityGroups ?? [];
}

/**
 * Makes the cluster's security group (or finds it again by name) with its rules. Safe to repeat:
 * a rule already there is skipped, one at a time (EC2 refuses a whole call for one duplicate).
 */
export async function ensureClusterGroup(
  ec2: EC2Client,
  p: Ec2Placement,
  cluster: { clusterId: number; workspaceId: number; spec: FirewallSpec },
): Promise<string> {
  try {
    const vpcId = await vpcOf(ec2, p);
    const name = groupName(cluster.clusterId, p, vpcId);
    let groupId = (await findGroup(ec2, name, vpcId))[0]?.GroupId;
    if (!groupId) {
      const made = await ec2
        .send(
          new ec2Sdk.CreateSecurityGroupCommand({
            GroupName: name,
            Description: `The firewall of Cumulus cluster ${cluster.clusterId}`,
            VpcId: vpcId,
            TagSpecifications: [
              {
                ResourceType: 'security-group',
                Tags: [
                  { Key: 'Name', Value: name },
                  { Key: TAG.cluster, Value: String(cluster.clusterId) },
                  { Key: TAG.workspace, Value: String(cluster.workspaceId) },
                  { Key: TAG.role, Value: 'firewall' },
                ],
              },
            ],
          }),
        )
        // Made meanwhile by another launch of the cluster (another replica): that one is the cluster's.
        .catch(async (err: unknown) => {
          if (awsCode(err) !== 'InvalidGroup.Duplicate') throw err;
          return { GroupId: (await findGroup(ec2, name, vpcId))[0]?.GroupId };
        });
      if (!made.GroupId) throw retryable(`EC2 made no security group ${name}.`);
      groupId = made.GroupId;
    }
    const permissions = ingressPermissions(cluster.spec, groupId);
    await ec2
      .send(new ec2Sdk.AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: permissions }))
      .catch(async (err: unknown) => {
        if (awsCode(err) !== 'InvalidPermission.Duplicate') throw err;
        for (const one of permissions)
          await ec2
            .send(new ec2Sdk.AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: [one] }))
            .catch(ignoring('InvalidPermission.Duplicate'));
      });
    return groupId;
  } catch (err) {
    throw err instanceof BackendError ? err : classify(err);
  }
}

/**
 * Deletes the cluster's security group, if it has one. While a machine of the cluster still holds
 * it (EC2 frees a terminated instance's network interface a little later), the answer is retryable.
 */
export async function deleteClusterGroup(ec2: EC2Client, p: Ec2Placement, clusterId: number): Promise<void> {
  try {
    const vpcId = await vpcOf(ec2, p);
    for (const g of await findGroup(ec2, groupName(clusterId, p, vpcId), vpcId))
      await ec2
        .send(new ec2Sdk.DeleteSecurityGroupCommand({ GroupId: g.GroupId }))
        .catch(ignoring('InvalidGroup.NotFound'));
  } catch (err) {
    if (awsCode(err) === 'DependencyViolation')
      throw retryable(
        `The cluster's security group is still in use by its machines; it is removed once EC2 has let them go.`,
        err,
      );
    throw err instanceof BackendError ? err : classify(err);
  }
}
