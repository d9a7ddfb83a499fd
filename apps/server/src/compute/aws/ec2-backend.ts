import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  type EC2Client,
  type Instance,
  RunInstancesCommand,
  type RunInstancesCommandInput,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import {
  type Backend,
  type BackendData,
  final,
  type InstanceRef,
  type LaunchSpec,
  type MachineShape,
  type Observation,
  retryable,
} from '../backend.js';
import { type AwsOptions, type AwsSecret, awsCode, awsMessage, credentialsOf, ec2Client } from './clients.js';
import { userDataScript } from './user-data.js';

/** Where and how a workspace's instances run (its credentials, region, network and settings). */
export interface Ec2Placement {
  secret: AwsSecret;
  region: string;
  subnetIds: string[];
  securityGroupId: string | null;
  instanceProfileArn: string | null;
  settings: {
    worker_instance_types: string[];
    scheduler_instance_types: string[];
    spot: boolean;
    spot_on_demand_fallback: boolean;
    disk_size_gib: number;
    amis: Partial<Record<string, string>>;
  };
}

export interface Ec2BackendOptions {
  aws: AwsOptions;
  /** The workspace's placement, or null when its AWS setup is not complete. */
  placementOf(workspaceId: number): Promise<Ec2Placement | null>;
  /** The machine of an instance type (the catalogue's), for instance specs and metering. */
  shapeOf(instanceType: string): MachineShape | undefined;
  /** Every EC2 call, by name: the bench counts them. */
  onCall?: (name: string) => void;
}

export const TAG = {
  backendId: 'cumulus:backend-id',
  cluster: 'cumulus:cluster-id',
  workspace: 'cumulus:workspace-id',
  role: 'cumulus:role',
} as const;

/** Errors after which the next instance type (or on-demand) may work. */
const CAPACITY = new Set([
  'InsufficientInstanceCapacity',
  'InstanceLimitExceeded',
  'VcpuLimitExceeded',
  'MaxSpotInstanceCountExceeded',
  'SpotMaxPriceTooLow',
  'InsufficientCapacity',
  'Unsupported',
  'InvalidParameterCombination',
]);
/** Errors no retry mends: a person has to change permissions or settings. */
const CONFIGURATION =
  /^(UnauthorizedOperation|AuthFailure|InvalidAMIID|InvalidSubnetID|InvalidGroup|InvalidParameterValue|InvalidClientTokenId|OptInRequired|Blocked|AccessDenied)/;
const THROTTLED = /^(RequestLimitExceeded|Throttling|ServiceUnavailable|InternalError|Unavailable)/;

const LAUNCHABLE = ['pending', 'running'];

/** EC2's instance states in the words of the contract's instance states (client-contract.md section 2.8). */
export const EC2_TO_INSTANCE_STATE: Record<string, 'starting' | 'started' | 'stopping' | 'stopped'> = {
  pending: 'starting',
  running: 'started',
  stopping: 'stopping',
  'shutting-down': 'stopping',
  stopped: 'stopped',
  terminated: 'stopped',
};

const OBSERVED: Record<string, Observation['state']> = {
  pending: 'pending',
  running: 'running',
  stopping: 'stopping',
  'shutting-down': 'stopping',
  stopped: 'gone',
  terminated: 'gone',
};

const tagsOf = (spec: LaunchSpec) =>
  Object.entries({
    Name: spec.name,
    [TAG.backendId]: spec.backendId,
    [TAG.cluster]: String(spec.clusterId),
    [TAG.workspace]: String(spec.workspaceId),
    [TAG.role]: spec.role,
  }).map(([Key, Value]) => ({ Key, Value }));

const PLACEMENT_TTL_MS = 5_000;
/** RunInstances in flight at once per backend: a 200-worker cluster queues, not floods (EC2 throttles). */
const LAUNCHES_AT_ONCE = 16;
/** What a cluster that names no instance type is sized as (clients' AWS default). */
const DEFAULT_TYPE = 'm6i.xlarge';

/**
 * `vm_aws`: one EC2 instance per scheduler and worker, in the workspace's own account. Launches
 * are found again by their backend-id tag (a launch repeated after a crash adopts the instance
 * instead of making a second); one DescribeInstances per workspace and region answers a whole
 * reconcile pass; stop terminates.
 */
export function createEc2Backend(options: Ec2BackendOptions): Backend {
  const placements = new Map<number, { at: number; value: Promise<Ec2Placement | null> }>();
  const clients = new Map<string, EC2Client>();
  const rootDevices = new Map<string, Promise<string | null>>();
  let launching = 0;
  const waiting: (() => void)[] = [];
  async function slot<T>(work: () => Promise<T>): Promise<T> {
    if (launching >= LAUNCHES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
    launching++;
    try {
      return await work();
    } finally {
      launching--;
      waiting.shift()?.();
    }
  }

  async function placementOf(workspaceId: number): Promise<Ec2Placement> {
    let held = placements.get(workspaceId);
    if (!held || Date.now() - held.at > PLACEMENT_TTL_MS) {
      held = { at: Date.now(), value: options.placementOf(workspaceId) };
      placements.set(workspaceId, held);
    }
    const placement = await held.value.catch((err: unknown) => {
      placements.delete(workspaceId);
      throw err;
    });
    if (!placement)
      throw final("The workspace's AWS setup is not complete (credentials, global setup and a region).");
    return placement;
  }

  function ec2(workspaceId: number, p: Ec2Placement): EC2Client {
    const key = `${workspaceId}:${p.region}:${JSON.stringify(p.secret)}`;
    let client = clients.get(key);
    if (!client) {
      client = ec2Client(options.aws, p.region, credentialsOf(options.aws, p.region, p.secret));
      if (options.onCall)
        client.middlewareStack.add(
          (next, context) => (args) => {
            options.onCall!(String(context.commandName).replace(/Command$/, ''));
            return next(args);
          },
          { step: 'initialize', name: 'cumulusCallCounter' },
        );
      clients.set(key, client);
    }
    return client;
  }

  /** The instance a launch made before, found by its tag (a launch is repeated after a crash). */
  async function findLaunched(client: EC2Client, backendId: string): Promise<Instance | undefined> {
    const answer = await client.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: `tag:${TAG.backendId}`, Values: [backendId] },
          { Name: 'instance-state-name', Values: LAUNCHABLE },
        ],
      }),
    );
    return answer.Reservations?.flatMap((r) => r.Instances ?? [])[0];
  }

  function rootDevice(client: EC2Client, region: string, ami: string): Promise<string | null> {
    const key = `${region}:${ami}`;
    let device = rootDevices.get(key);
    if (!device) {
      device = client
        .send(new DescribeImagesCommand({ ImageIds: [ami] }))
        .then((a) => a.Images?.[0]?.RootDeviceName ?? null)
        .catch(() => null);
      rootDevices.set(key, device);
    }
    return device;
  }

  const dataOf = (
    i: Instance,
    workspaceId: number,
    region: string,
    extra: BackendData = {},
  ): BackendData => ({
    instanceId: i.InstanceId,
    region,
    workspaceId,
    instanceType: i.InstanceType,
    spot: i.InstanceLifecycle === 'spot',
    subnetId: i.SubnetId ?? null,
    ...extra,
  });

  async function launch(spec: LaunchSpec): Promise<BackendData> {
    const p = await placementOf(spec.workspaceId);
    const client = ec2(spec.workspaceId, p);
    const existing = await findLaunched(client, spec.backendId).catch((err: unknown) => {
      throw classify(err);
    });
    if (existing) return dataOf(existing, spec.workspaceId, p.region, { adopted: true });

    const ami = p.settings.amis[p.region];
    if (!ami)
      throw final(`No machine image is set for ${p.region}: set one in the workspace's AWS settings.`);
    const asked = spec.instanceTypes.length
      ? spec.instanceTypes
      : spec.role === 'scheduler'
        ? p.settings.scheduler_instance_types
        : p.settings.worker_instance_types;
    const types = asked.filter((t) => /^[a-z][a-z0-9-]*\.[a-z0-9]+$/.test(t));
    if (types.length === 0)
      throw final(`None of ${asked.join(', ') || 'the instance types'} is an EC2 instance type.`);
    // Schedulers stay on demand: losing one loses the cluster.
    const spot = (spec.spot ?? p.settings.spot) && spec.role === 'worker';
    const markets: ('spot' | 'on-demand')[] = spot
      ? (spec.spotOnDemandFallback ?? p.settings.spot_on_demand_fallback)
        ? ['spot', 'on-demand']
        : ['spot']
      : ['on-demand'];
    const device = await rootDevice(client, p.region, ami);
    const subnet = p.subnetIds.length ? p.subnetIds[spec.instanceId % p.subnetIds.length] : undefined;
    const skipped: string[] = [];
    for (const instanceType of types) {
      for (const market of markets) {
        const input: RunInstancesCommandInput = {
          ImageId: ami,
          InstanceType: instanceType as RunInstancesCommandInput['InstanceType'],
          MinCount: 1,
          MaxCount: 1,
          ClientToken: `${spec.backendId}-${instanceType}-${market}`.slice(0, 64),
          UserData: Buffer.from(userDataScript(spec)).toString('base64'),
          ...(subnet && { SubnetId: subnet }),
          ...(p.securityGroupId && { SecurityGroupIds: [p.securityGroupId] }),
          ...(p.instanceProfileArn && { IamInstanceProfile: { Arn: p.instanceProfileArn } }),
          ...(device && {
            BlockDeviceMappings: [
              {
                DeviceName: device,
                Ebs: { VolumeSize: p.settings.disk_size_gib, VolumeType: 'gp3', DeleteOnTermination: true },
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
        try {
          const made = (await client.send(new RunInstancesCommand(input))).Instances?.[0];
          if (!made?.InstanceId) throw retryable('EC2 answered RunInstances without an instance.');
          const note = skipped.length
            ? `Launched ${instanceType}${market === 'spot' ? ' (spot)' : ''} after: ${skipped.join('; ')}`
            : undefined;
          return dataOf(made, spec.workspaceId, p.region, { ...(note && { note }) });
        } catch (err) {
          const code = awsCode(err);
          if (!CAPACITY.has(code)) throw classify(err);
          skipped.push(`${instanceType}${market === 'spot' ? ' spot' : ''}: ${awsMessage(err)}`);
        }
      }
    }
    // Capacity may come back: the reconciler tries again later, showing why.
    throw retryable(`No capacity in ${p.region} for ${types.join(', ')}: ${skipped.join('; ')}`);
  }

  return {
    type: 'vm_aws',
    capabilities: { ssh: true, dashboards: true, gpus: true, spot: true, builds: [] },

    describeSelf() {
      return { backend: 'vm_aws', options: { provider_name: 'aws' } };
    },

    machineFor(instanceTypes: readonly string[]): MachineShape {
      const known = instanceTypes.map((t) => options.shapeOf(t)).find((m) => m !== undefined);
      return known ?? options.shapeOf(DEFAULT_TYPE)!;
    },

    async spotWorkers(workspaceId, asked) {
      if (asked !== undefined) return asked;
      // A workspace not set up yet launches nothing; its clusters fail at launch, saying why.
      return placementOf(workspaceId).then(
        (p) => p.settings.spot,
        () => false,
      );
    },

    launch: (spec) => slot(() => launch(spec)),

    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const seen = new Map<string, Observation>();
      const groups = new Map<string, { workspaceId: number; region: string; refs: InstanceRef[] }>();
      for (const ref of refs) {
        const d = ref.backendData as { instanceId?: string; workspaceId?: number; region?: string } | null;
        if (!d?.instanceId || d.workspaceId === undefined || !d.region) {
          seen.set(ref.backendId, { state: 'gone', reason: 'It was never launched in EC2' });
          continue;
        }
        const key = `${d.workspaceId}:${d.region}`;
        const group = groups.get(key) ?? { workspaceId: d.workspaceId, region: d.region, refs: [] };
        group.refs.push(ref);
        groups.set(key, group);
      }
      await Promise.all(
        [...groups.values()].map(async (g) => {
          const p = await placementOf(g.workspaceId);
          const client = ec2(g.workspaceId, { ...p, region: g.region });
          const byId = new Map<string, Instance>();
          const ids = g.refs.map((r) => String((r.backendData as { instanceId: string }).instanceId));
          for (let i = 0; i < ids.length; i += 200) {
            const answer = await client
              .send(
                new DescribeInstancesCommand({
                  Filters: [{ Name: 'instance-id', Values: ids.slice(i, i + 200) }],
                }),
              )
              .catch((err: unknown) => {
                throw classify(err);
              });
            for (const inst of answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? [])
              if (inst.InstanceId) byId.set(inst.InstanceId, inst);
          }
          for (const ref of g.refs) {
            const inst = byId.get(String((ref.backendData as { instanceId: string }).instanceId));
            const state = inst?.State?.Name ?? 'terminated';
            seen.set(ref.backendId, {
              state: OBSERVED[state] ?? 'pending',
              ...(OBSERVED[state] === 'gone' && {
                reason: inst?.StateReason?.Message ?? `EC2 instance ${state}`,
              }),
              privateIp: inst?.PrivateIpAddress ?? null,
              publicIp: inst?.PublicIpAddress ?? null,
            });
          }
        }),
      );
      return seen;
    },

    async stop(ref: InstanceRef): Promise<void> {
      const d = ref.backendData as { instanceId?: string; workspaceId?: number; region?: string } | null;
      if (!d?.instanceId || d.workspaceId === undefined || !d.region) return;
      const p = await placementOf(d.workspaceId);
      await ec2(d.workspaceId, { ...p, region: d.region })
        .send(new TerminateInstancesCommand({ InstanceIds: [d.instanceId] }))
        .catch((err: unknown) => {
          if (awsCode(err) !== 'InvalidInstanceID.NotFound') throw classify(err);
        });
    },
  };
}

/** An AWS failure as the reconciler needs it: the user's words, and whether trying again can help. */
function classify(err: unknown) {
  const code = awsCode(err);
  const reason = awsMessage(err);
  if (CONFIGURATION.test(code)) return final(reason, err);
  if (THROTTLED.test(code) || CAPACITY.has(code)) return retryable(reason, err);
  return retryable(reason, err);
}
