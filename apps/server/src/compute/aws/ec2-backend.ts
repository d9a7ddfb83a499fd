import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
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
import { CLUSTER_PORTS } from './network.js';
import { classify, nextChoice, runInput, TAG } from './run-instances.js';
import { ec2 as ec2Sdk } from './sdk.js';

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
  /** How long after launch an instance EC2 does not know yet counts as pending (UNKNOWN_GRACE_MS). */
  unknownGraceMs?: number;
}

const LAUNCHABLE = ['pending', 'running'];

const OBSERVED: Record<string, Observation['state']> = {
  pending: 'pending',
  running: 'running',
  stopping: 'stopping',
  'shutting-down': 'stopping',
  stopped: 'gone',
  terminated: 'gone',
};

const PLACEMENT_TTL_MS = 5_000;
/**
 * EC2 is eventually consistent: DescribeInstances may not know an instance for a while after
 * RunInstances made it. Until this long after its launch, an unknown instance is still pending.
 */
export const UNKNOWN_GRACE_MS = 3 * 60_000;
/** Values one DescribeInstances filter takes. */
const FILTER_VALUES = 200;
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
  const unknownGraceMs = options.unknownGraceMs ?? UNKNOWN_GRACE_MS;
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

  /**
   * The instances launches made before, found by their backend-id tag (a launch is repeated after
   * a crash between RunInstances and recording its answer). Launches asked for together share one
   * DescribeInstances: a pass launching 200 workers looks once, not 200 times.
   */
  const lookups = new Map<string, { ids: string[]; found: Promise<Map<string, Instance>> }>();
  function launchedBefore(key: string, client: EC2Client, backendId: string): Promise<Instance | undefined> {
    let batch = lookups.get(key);
    if (!batch || batch.ids.length >= FILTER_VALUES) {
      const ids: string[] = [];
      const found = new Promise<Map<string, Instance>>((resolve, reject) =>
        setImmediate(() => {
          if (lookups.get(key)?.ids === ids) lookups.delete(key);
          client
            .send(
              new ec2Sdk.DescribeInstancesCommand({
                Filters: [
                  { Name: `tag:${TAG.backendId}`, Values: ids },
                  { Name: 'instance-state-name', Values: LAUNCHABLE },
                ],
              }),
            )
            .then((answer) => {
              const byId = new Map<string, Instance>();
              for (const i of answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? []) {
                const id = i.Tags?.find((t) => t.Key === TAG.backendId)?.Value;
                if (id && !byId.has(id)) byId.set(id, i);
              }
              resolve(byId);
            }, reject);
        }),
      );
      batch = { ids, found };
      lookups.set(key, batch);
    }
    batch.ids.push(backendId);
    return batch.found.then((byId) => byId.get(backendId));
  }

  function rootDevice(client: EC2Client, region: string, ami: string): Promise<string | null> {
    const key = `${region}:${ami}`;
    let device = rootDevices.get(key);
    if (!device) {
      device = client
        .send(new ec2Sdk.DescribeImagesCommand({ ImageIds: [ami] }))
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
    zone: i.Placement?.AvailabilityZone ?? null,
    launchedAt: (i.LaunchTime ?? new Date()).toISOString(),
    ...extra,
  });

  async function launch(spec: LaunchSpec): Promise<BackendData> {
    const p = await placementOf(spec.workspaceId);
    const client = ec2(spec.workspaceId, p);
    const existing = await launchedBefore(`${spec.workspaceId}:${p.region}`, client, spec.backendId).catch(
      (err: unknown) => {
        throw classify(err);
      },
    );
    if (existing) return dataOf(existing, spec.workspaceId, p.region, { adopted: true });
    return slot(() => runInstance(spec, p, client));
  }

  /**
   * RunInstances with the first choice EC2 accepts: instance types in order, spot then on-demand
   * where allowed, and each subnet (its zone) in turn when a zone lacks capacity or the type.
   */
  async function runInstance(spec: LaunchSpec, p: Ec2Placement, client: EC2Client): Promise<BackendData> {
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
    // Instances spread over the subnets; each tries the others when its own zone is short.
    const first = p.subnetIds.length ? spec.instanceId % p.subnetIds.length : 0;
    const subnets: (string | undefined)[] = p.subnetIds.length
      ? [...p.subnetIds.slice(first), ...p.subnetIds.slice(0, first)]
      : [undefined];
    const skipped: string[] = [];
    nextType: for (const instanceType of types) {
      for (const market of markets) {
        for (const subnet of subnets) {
          const input = runInput(spec, p, { ami, device, instanceType, market, subnet });
          try {
            const made = (await client.send(new ec2Sdk.RunInstancesCommand(input))).Instances?.[0];
            if (!made?.InstanceId) throw retryable('EC2 answered RunInstances without an instance.');
            const note = skipped.length
              ? `Launched ${instanceType}${market === 'spot' ? ' (spot)' : ''} after: ${skipped.join('; ')}`
              : undefined;
            return dataOf(made, spec.workspaceId, p.region, { ...(note && { note }) });
          } catch (err) {
            const next = nextChoice(err, instanceType);
            if (!next) throw classify(err);
            const where = subnets.length > 1 && subnet ? ` in ${subnet}` : '';
            skipped.push(`${instanceType}${market === 'spot' ? ' spot' : ''}${where}: ${awsMessage(err)}`);
            if (next === 'type') continue nextType;
            if (next === 'market') break;
          }
        }
      }
    }
    // Capacity may come back: the reconciler tries again later, showing why.
    throw retryable(`No capacity in ${p.region} for ${types.join(', ')}: ${skipped.join('; ')}`);
  }

  return {
    type: 'vm_aws',
    // No SSH: no key pair is given to the VMs and the security group keeps port 22 closed.
    capabilities: { ssh: false, dashboards: true, gpus: true, spot: true, builds: [] },
    // What the cluster security group opens (network.ts): a client outside the VPC reaches these.
    ports: { scheduler: CLUSTER_PORTS[0], dashboard: CLUSTER_PORTS[1], jupyter: CLUSTER_PORTS[2] },

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

    launch,

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
                new ec2Sdk.DescribeInstancesCommand({
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
            const data = ref.backendData as { instanceId: string; launchedAt?: string };
            const inst = byId.get(String(data.instanceId));
            const launchedAt = Date.parse(data.launchedAt ?? '');
            if (!inst && Date.now() - launchedAt < unknownGraceMs) {
              // Just launched: DescribeInstances may not know it yet (EC2's eventual consistency).
              seen.set(ref.backendId, { state: 'pending' });
              continue;
            }
            const state = inst?.State?.Name ?? 'terminated';
            seen.set(ref.backendId, {
              state: OBSERVED[state] ?? 'pending',
              ...(OBSERVED[state] === 'gone' && {
                reason: inst
                  ? (inst.StateReason?.Message ?? `EC2 instance ${state}`)
                  : `EC2 does not know instance ${data.instanceId}`,
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
        .send(new ec2Sdk.TerminateInstancesCommand({ InstanceIds: [d.instanceId] }))
        .catch((err: unknown) => {
          if (awsCode(err) !== 'InvalidInstanceID.NotFound') throw classify(err);
        });
    },
  };
}
