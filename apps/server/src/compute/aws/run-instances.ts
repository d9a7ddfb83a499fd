import { createHash } from 'node:crypto';
import type { RunInstancesCommandInput } from '@aws-sdk/client-ec2';
import { final, type LaunchSpec, retryable } from '../backend.js';
import { awsCode, awsMessage } from './clients.js';
import type { Ec2Placement } from './placement.js';
import { userDataScript } from './user-data.js';

/**
 * What vm_aws asks RunInstances, and what it makes of EC2's refusals: which other choice may
 * work, and which errors only a person can mend.
 */

export const TAG = {
  backendId: 'cumulus:backend-id',
  cluster: 'cumulus:cluster-id',
  workspace: 'cumulus:workspace-id',
  role: 'cumulus:role',
} as const;

export const tagsOf = (spec: LaunchSpec) =>
  Object.entries({
    Name: spec.name,
    [TAG.backendId]: spec.backendId,
    [TAG.cluster]: String(spec.clusterId),
    [TAG.workspace]: String(spec.workspaceId),
    [TAG.role]: spec.role,
  }).map(([Key, Value]) => ({ Key, Value }));

/** One RunInstances request; its ClientToken makes a request repeated after a lost answer one launch. */
export function runInput(
  spec: LaunchSpec,
  p: Ec2Placement,
  choice: {
    ami: string;
    device: string | null;
    instanceType: string;
    market: 'spot' | 'on-demand';
    subnet: string | undefined;
    zone?: string | undefined;
    /** The cluster's own security group (its firewall), besides the workspace's. */
    clusterGroup?: string | undefined;
  },
): RunInstancesCommandInput {
  const { ami, device, instanceType, market, subnet, zone, clusterGroup } = choice;
  const groups = [p.securityGroupId, clusterGroup].filter((g): g is string => !!g);
  return {
    ImageId: ami,
    InstanceType: instanceType as RunInstancesCommandInput['InstanceType'],
    MinCount: 1,
    MaxCount: 1,
    ClientToken: createHash('sha256')
      .update(`${spec.backendId}|${instanceType}|${market}|${subnet ?? ''}`)
      .digest('hex')
      .slice(0, 64),
    UserData: Buffer.from(userDataScript(spec)).toString('base64'),
    ...(subnet && { SubnetId: subnet }),
    ...(!subnet && zone && { Placement: { AvailabilityZone: zone } }),
    ...(groups.length && { SecurityGroupIds: groups }),
    ...(p.instanceProfileArn && { IamInstanceProfile: { Arn: p.instanceProfileArn } }),
    ...(device && {
      BlockDeviceMappings: [
        {
          DeviceName: device,
          Ebs: {
            VolumeSize: spec.diskGib ?? p.settings.disk_size_gib,
            VolumeType: 'gp3',
            DeleteOnTermination: true,
            ...(spec.diskThroughput && { Throughput: spec.diskThroughput }),
          },
        },
      ],
    }),
    ...(market === 'spot' && {
      InstanceMarketOptions: {
        MarketType: 'spot',
        SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' },
      },
    }),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: tagsOf(spec) },
      { ResourceType: 'volume', Tags: tagsOf(spec) },
    ],
  };
}

/**
 * Launch errors another choice may mend, by what to try next: another subnet (its zone may have
 * capacity, or offer the type), the other market (on-demand after spot), or the next instance type.
 */
const TRY_ANOTHER_ZONE = new Set(['InsufficientInstanceCapacity', 'InsufficientCapacity', 'Unsupported']);
const TRY_ANOTHER_MARKET = new Set(['MaxSpotInstanceCountExceeded', 'SpotMaxPriceTooLow']);
const TRY_ANOTHER_TYPE = new Set([
  'InstanceLimitExceeded',
  'VcpuLimitExceeded',
  'InvalidParameterCombination',
]);

export function nextChoice(err: unknown, instanceType: string): 'zone' | 'market' | 'type' | null {
  const code = awsCode(err);
  if (TRY_ANOTHER_ZONE.has(code)) return 'zone';
  if (TRY_ANOTHER_MARKET.has(code)) return 'market';
  if (TRY_ANOTHER_TYPE.has(code)) return 'type';
  // "Invalid value 'x' for InstanceType", "The instance type 'x' is not supported in this region".
  if (code === 'InvalidParameterValue' && awsMessage(err).includes(instanceType)) return 'type';
  return null;
}
/** Errors no retry mends: a person has to change permissions or settings. */
const CONFIGURATION =
  /^(UnauthorizedOperation|AuthFailure|InvalidAMIID|InvalidSubnetID|InvalidGroup|InvalidParameterValue|InvalidClientTokenId|OptInRequired|Blocked|AccessDenied)/;

/** An AWS failure as the reconciler needs it: the user's words, and whether trying again can help. */
export function classify(err: unknown) {
  const code = awsCode(err);
  const reason = awsMessage(err);
  // Throttling, capacity, EC2's own faults and anything unknown: the same call may work later.
  return CONFIGURATION.test(code) ? final(reason, err) : retryable(reason, err);
}
