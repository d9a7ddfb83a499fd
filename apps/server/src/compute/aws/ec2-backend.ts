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
import type { Interpreter } from '../builder.js';
import { createEc2Builder } from './build-machines.js';
import { type AwsOptions, type AwsSecret, awsCode, awsMessage, credentialsOf, ec2Client } from './clients.js';
import { deleteClusterGroup, ensureClusterGroup } from './cluster-firewall.js';
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
    /** Region → the image instances boot (x86_64 unless set otherwise). */
    amis: Partial<Record<string, string>>;
    /** Region → the image arm64 types boot. */
    arm_amis?: Partial<Record<string, string>>;
    /** Region → the image GPU types boot (else their architecture's). */
    gpu_amis?: Partial<Record<string, string>>;
  };
}

export interface Ec2BackendOptions {
  aws: AwsOptions;
  /**
   * The workspace's placement in one of its set-up regions (else its default one), or null when
   * its AWS setup is not complete or has no such region.
   */
  placementOf(workspaceId: number, region?: string): Promise<Ec2Placement | null>;
  /** The machine of an instance type (the catalogue's), for instance specs and metering. */
  shapeOf(instanceType: string): MachineShape | undefined;
  /** Every EC2 call, by name: the bench counts them. */
  onCall?: (name: string) => void;
  /** How long after launch an instance EC2 does not know yet counts as pending (UNKNOWN_GRACE_MS). */
  unknownGraceMs?: number;
  /** The Python the workspace images are taken to have (build-machines.ts); unset: unknown. */
  interpreter?: () => Promise<Interpreter>;
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

/** How long a workspace's placement (its settings too) is held: a change reaches launches within this. */
export const PLACEMENT_TTL_MS = 5_000;
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
  const placements = new Map<string, { at: number; value: Promise<Ec2Placement | null> }>();
  const clients = new Map<string, EC2Client>();
  const images = new Map<string, Promise<{ device: string | null; arch: string | null }>>();
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

  async function placementOf(workspaceId: number, region?: string): Promise<Ec2Placement> {
    const key = `${workspaceId}:${region ?? ''}`;
    let held = placements.get(key);
    if (!held || Date.now() - held.at > PLACEMENT_TTL_MS) {
      held = { at: Date.now(), value: options.placementOf(workspaceId, region) };
      placements.set(key, held);
    }
    const placement = await held.value.catch((err: unknown) => {
      placements.delete(key);
      throw err;
    });
    if (!placement)
      throw final(
        region
          ? `${region} is not one of the workspace's set-up AWS regions (or its AWS setup is not complete).`
          : "The workspace's AWS setup is not complete (credentials, global setup and a region).",
      );
    return placement;
  }

  /** The workspace's subnets in a zone (their zones asked of EC2 once per region). */
  const subnetZones = new Map<string, Promise<Map<string, string>>>();
  async function subnetsIn(client: EC2Client, p: Ec2Placement, zone: string): Promise<string[]> {
    const key = `${p.region}:${p.subnetIds.join(',')}`;
    let zones = subnetZones.get(key);
    if (!zones) {
      zones = client
        .send(new ec2Sdk.DescribeSubnetsCommand({ SubnetIds: p.subnetIds }))
        .then((a) => new Map((a.Subnets ?? []).map((s) => [s.SubnetId ?? '', s.AvailabilityZone ?? ''])));
      subnetZones.set(key, zones);
      zones.catch(() => subnetZones.delete(key));
    }
    const byId = await zones.catch((err: unknown) => {
      throw classify(err);
    });
    const inZone = p.subnetIds.filter((id) => byId.get(id) === zone);
    if (inZone.length === 0)
      throw final(
        `None of the workspace's subnets in ${p.region} is in ${zone} (they are in ${[...new Set(byId.values())].sort().join(', ')}): choose one of those zones or add a subnet there.`,
      );
    return inZone;
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

  /** The image's root device (what its disk size sets) and architecture (which types can run it). */
  function imageOf(client: EC2Client, region: string, ami: string) {
    const key = `${region}:${ami}`;
    let image = images.get(key);
    if (!image) {
      image = client
        .send(new ec2Sdk.DescribeImagesCommand({ ImageIds: [ami] }))
        .then((a) => ({
          device: a.Images?.[0]?.RootDeviceName ?? null,
          arch: a.Images?.[0]?.Architecture ?? null,
        }))
        .catch(() => ({ device: null, arch: null }));
      images.set(key, image);
    }
    return image;
  }

  /**
   * The image an instance type boots in the placement's region: a GPU type the GPU image when one
   * is set, else the image of its architecture (EC2 says arm64 where the catalogue says aarch64).
   * An image EC2 does not describe is taken to be what it was set as; a type not in the catalogue
   * boots the region's image. Without one: which image is missing.
   */
  async function imageFor(
    client: EC2Client,
    p: Ec2Placement,
    type: string,
  ): Promise<{ ami: string; device: string | null } | { missing: string }> {
    const shape = options.shapeOf(type);
    const arch = shape?.arch.replace('aarch64', 'arm64') ?? null;
    const { amis, arm_amis: armAmis = {}, gpu_amis: gpuAmis = {} } = p.settings;
    const set = [
      ...(shape?.gpus ? [{ ami: gpuAmis[p.region], as: null }] : []),
      ...(arch === 'arm64' ? [{ ami: armAmis[p.region], as: 'arm64' }] : []),
      { ami: amis[p.region], as: null },
    ];
    const seen: string[] = [];
    for (const { ami, as } of set) {
      if (!ami) continue;
      const image = await imageOf(client, p.region, ami);
      const imageArch = image.arch ?? as;
      if (!arch || !imageArch || imageArch === arch) return { ami, device: image.device };
      seen.push(`${ami} is ${imageArch}`);
    }
    const field = arch === 'arm64' ? 'arm_amis' : 'amis';
    const others = seen.length ? `; ${seen.join(', ')}` : '';
    return { missing: `No ${arch ? `${arch} ` : ''}image is set for ${p.region} (${field}${others})` };
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
    const p = await placementOf(spec.workspaceId, spec.region);
    const client = ec2(spec.workspaceId, p);
    const existing = await launchedBefore(`${spec.workspaceId}:${p.region}`, client, spec.backendId).catch(
      (err: unknown) => {
        throw classify(err);
      },
    );
    if (existing) return dataOf(existing, spec.workspaceId, p.region, { adopted: true });
    const clusterGroup = spec.firewall ? await firewallOf(spec, p, client) : undefined;
    return slot(() => runInstance(spec, p, client, clusterGroup));
  }

  /** A cluster's security group (cluster-firewall.ts), made once for all its launches. */
  const firewalls = new Map<string, Promise<string>>();
  const firewallKey = (workspaceId: number, region: string, clusterId: number) =>
    `${workspaceId}:${region}:${clusterId}`;
  function firewallOf(spec: LaunchSpec, p: Ec2Placement, client: EC2Client): Promise<string> {
    const key = firewallKey(spec.workspaceId, p.region, spec.clusterId);
    let group = firewalls.get(key);
    if (!group) {
      group = ensureClusterGroup(client, p, {
        clusterId: spec.clusterId,
        workspaceId: spec.workspaceId,
        spec: spec.firewall!,
      });
      firewalls.set(key, group);
      group.catch(() => firewalls.delete(key));
    }
    return group;
  }

  /**
   * RunInstances with the first choice EC2 accepts: instance types in order, spot then on-demand
   * where allowed, and each subnet (its zone) in turn when a zone lacks capacity or the type.
   */
  async function runInstance(
    spec: LaunchSpec,
    p: Ec2Placement,
    client: EC2Client,
    clusterGroup: string | undefined,
  ): Promise<BackendData> {
    const { amis, arm_amis: armAmis = {}, gpu_amis: gpuAmis = {} } = p.settings;
    if (!amis[p.region] && !armAmis[p.region] && !gpuAmis[p.region])
      throw final(`No machine image is set for ${p.region}: set one in the workspace's AWS settings.`);
    const asked = spec.instanceTypes.length
      ? spec.instanceTypes
      : spec.role === 'scheduler'
        ? p.settings.scheduler_instance_types
        : p.settings.worker_instance_types;
    const valid = asked.filter((t) => /^[a-z][a-z0-9-]*\.[a-z0-9]+$/.test(t));
    if (valid.length === 0)
      throw final(`None of ${asked.join(', ') || 'the instance types'} is an EC2 instance type.`);
    // Each type boots the image of its architecture; types no image runs are left out, saying why.
    const chosen = await Promise.all(valid.map((t) => imageFor(client, p, t)));
    const types = valid.flatMap((instanceType, i) => {
      const image = chosen[i]!;
      return 'ami' in image ? [{ instanceType, ...image }] : [];
    });
    if (types.length === 0) {
      const refused = new Map<string, string[]>();
      valid.forEach((t, i) => {
        const c = chosen[i]!;
        if ('missing' in c) refused.set(c.missing, [...(refused.get(c.missing) ?? []), t]);
      });
      const why = [...refused].map(([missing, ts]) => `${missing}: ${ts.join(', ')} cannot launch.`);
      throw final(
        `${why.join(' ')} Set the image in the workspace's AWS settings, or choose instance types an image there runs.`,
      );
    }
    // Schedulers stay on demand: losing one loses the cluster.
    const spot = (spec.spot ?? p.settings.spot) && spec.role === 'worker';
    const markets: ('spot' | 'on-demand')[] = spot
      ? (spec.spotOnDemandFallback ?? p.settings.spot_on_demand_fallback)
        ? ['spot', 'on-demand']
        : ['spot']
      : ['on-demand'];
    // A zone asked for keeps the instance to the workspace's subnets there (or, with none chosen, to the zone).
    const subnetIds = spec.zone && p.subnetIds.length ? await subnetsIn(client, p, spec.zone) : p.subnetIds;
    // Instances spread over the subnets; each tries the others when its own zone is short.
    const first = subnetIds.length ? spec.instanceId % subnetIds.length : 0;
    const subnets: (string | undefined)[] = subnetIds.length
      ? [...subnetIds.slice(first), ...subnetIds.slice(0, first)]
      : [undefined];
    // The types left out for want of an image are said in the note of the one launched.
    const skipped = valid.flatMap((t, i) => {
      const c = chosen[i]!;
      return 'missing' in c ? [`${t}: ${c.missing}`] : [];
    });
    nextType: for (const { instanceType, ami, device } of types) {
      for (const market of markets) {
        for (const subnet of subnets) {
          const input = runInput(spec, p, {
            ami,
            device,
            instanceType,
            market,
            subnet,
            zone: spec.zone,
            clusterGroup,
          });
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
    throw retryable(
      `No capacity in ${p.region} for ${types.map((t) => t.instanceType).join(', ')}: ${skipped.join('; ')}`,
    );
  }

  return {
    type: 'vm_aws',
    // SSH: the cluster's key reaches each VM in its user-data; the workspace's security group opens 22 to
    // its allowed CIDR, a cluster's own firewall (cluster-firewall.ts) to whom it names.
    capabilities: { ssh: true, dashboards: true, gpus: true, spot: true, firewall: true, builds: ['pip'] },
    // Builds run on a build machine per build (build-machines.ts); instances unpack the archive.
    builder: createEc2Builder({
      placementOf,
      clientOf: ec2,
      shapeOf: options.shapeOf,
      imageFor,
      interpreter: options.interpreter,
    }),
    // What the cluster security group opens (network.ts): a client outside the VPC reaches these.
    ports: { scheduler: CLUSTER_PORTS[0], dashboard: CLUSTER_PORTS[1], jupyter: CLUSTER_PORTS[2] },

    describeSelf() {
      // The scheduler's port, which clients open in a cluster's firewall (`firewall_spec`).
      return { backend: 'vm_aws', options: { provider_name: 'aws', scheduler_port: CLUSTER_PORTS[0] } };
    },

    machineFor(instanceTypes: readonly string[]): MachineShape {
      const known = instanceTypes.map((t) => options.shapeOf(t)).find((m) => m !== undefined);
      return known ?? options.shapeOf(DEFAULT_TYPE)!;
    },

    async defaultInstanceTypes(workspaceId) {
      // A workspace not set up yet: its clusters fail at launch, saying why.
      return placementOf(workspaceId).then(
        (p) => ({ scheduler: p.settings.scheduler_instance_types, worker: p.settings.worker_instance_types }),
        () => null,
      );
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

    async releaseCluster({ clusterId, workspaceId, region, firewall }) {
      // Its machines shared nothing else: a cluster without a firewall of its own has no group.
      if (!firewall) return;
      const p = await placementOf(workspaceId, region);
      firewalls.delete(firewallKey(workspaceId, p.region, clusterId));
      await deleteClusterGroup(ec2(workspaceId, p), p, clusterId);
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
