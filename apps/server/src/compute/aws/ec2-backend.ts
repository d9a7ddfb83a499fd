import type { EC2Client, Instance } from '@aws-sdk/client-ec2';
import type { Backend, MachineShape, Observation } from '../backend.js';
import type { Interpreter } from '../builder.js';
import { final, retryable } from '../errors.js';
import type { Podman } from '../podman.js';
import { type Bootable, notSetUpIn, type Vm, type VmCloud, vmSettingsOf } from '../vm/cloud.js';
import { withContainerChecks } from '../vm/container-builds.js';
import { createVmBackend } from '../vm/vm-backend.js';
import { createEc2Builder } from './build-machines.js';
import { type AwsOptions, awsCode, awsMessage, credentialsOf, ec2Client } from './clients.js';
import { deleteClusterGroup, ensureClusterGroup } from './cluster-firewall.js';
import { CLUSTER_PORTS } from './network.js';
import type { Ec2Placement } from './placement.js';
import { classify, nextChoice, runInput, TAG } from './run-instances.js';
import { ec2 as ec2Sdk } from './sdk.js';

export { PLACEMENT_TTL_MS, UNKNOWN_GRACE_MS } from '../vm/vm-backend.js';
export type { Ec2Placement } from './placement.js';

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
  /** Checks container images on this server (container-builds.ts); unset: no container environments. */
  podman?: Podman;
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

/** Instance ids one DescribeInstances filter takes. */
const FILTER_VALUES = 200;
/** What a cluster that names no instance type is sized as (clients' AWS default). */
const DEFAULT_TYPE = 'm6i.xlarge';

/** `vm_aws`: one EC2 instance per scheduler and worker, in the workspace's own account (vm/vm-backend.ts). */
export function createEc2Backend(options: Ec2BackendOptions): Backend {
  return createVmBackend(ec2Cloud(options), { label: 'EC2', unknownGraceMs: options.unknownGraceMs });
}

/** An EC2 instance as every VM backend sees a machine. */
function vmOf(i: Instance): Vm {
  const state = i.State?.Name ?? 'terminated';
  const observed = OBSERVED[state] ?? 'pending';
  return {
    id: i.InstanceId ?? '',
    type: i.InstanceType ?? null,
    spot: i.InstanceLifecycle === 'spot',
    zone: i.Placement?.AvailabilityZone ?? null,
    subnet: i.SubnetId ?? null,
    launchedAt: i.LaunchTime ?? null,
    state: observed,
    ...(observed === 'gone' && { reason: i.StateReason?.Message ?? `EC2 instance ${state}` }),
    privateIp: i.PrivateIpAddress ?? null,
    publicIp: i.PublicIpAddress ?? null,
  };
}

/** EC2's ports of a VM backend: its clients, images by architecture, subnets by zone, security groups. */
export function ec2Cloud(options: Ec2BackendOptions): VmCloud<Ec2Placement> {
  const clients = new Map<string, EC2Client>();
  const images = new Map<string, Promise<{ device: string | null; arch: string | null }>>();

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

  return {
    type: 'vm_aws',
    // SSH: the cluster's key reaches each VM in its user-data; the workspace's security group opens 22 to
    // its allowed CIDR, a cluster's own firewall (cluster-firewall.ts) to whom it names.
    capabilities: {
      ssh: true,
      dashboards: true,
      gpus: true,
      spot: true,
      firewall: true,
      builds: options.podman ? ['pip', 'container'] : ['pip'],
    },
    // What the cluster security group opens (network.ts): a client outside the VPC reaches these.
    ports: { scheduler: CLUSTER_PORTS[0], dashboard: CLUSTER_PORTS[1], jupyter: CLUSTER_PORTS[2] },
    describeSelf() {
      // The scheduler's port, which clients open in a cluster's firewall (`firewall_spec`).
      return { backend: 'vm_aws', options: { provider_name: 'aws', scheduler_port: CLUSTER_PORTS[0] } };
    },
    shapeOf: options.shapeOf,
    defaultType: DEFAULT_TYPE,

    placementOf: options.placementOf,
    notSetUp: notSetUpIn('AWS'),
    settingsOf: (p) => vmSettingsOf(p.settings),
    // Builds run on a build machine per build (build-machines.ts); instances unpack the archive.
    // Container images are checked on this server (container-builds.ts).
    builder: (placementOf) =>
      withContainerChecks(
        createEc2Builder({
          placementOf,
          clientOf: ec2,
          shapeOf: options.shapeOf,
          imageFor,
          interpreter: options.interpreter,
        }),
        options.podman,
      ),

    async bootable(p, workspaceId, asked) {
      const { amis, arm_amis: armAmis = {}, gpu_amis: gpuAmis = {} } = p.settings;
      if (!amis[p.region] && !armAmis[p.region] && !gpuAmis[p.region])
        throw final(`No machine image is set for ${p.region}: set one in the workspace's AWS settings.`);
      const valid = asked.filter((t) => /^[a-z][a-z0-9-]*\.[a-z0-9]+$/.test(t));
      if (valid.length === 0)
        throw final(`None of ${asked.join(', ') || 'the instance types'} is an EC2 instance type.`);
      const client = ec2(workspaceId, p);
      const chosen = await Promise.all(valid.map((t) => imageFor(client, p, t)));
      const ok: Bootable[] = [];
      const skipped: string[] = [];
      const refused = new Map<string, string[]>();
      valid.forEach((type, i) => {
        const image = chosen[i]!;
        if ('ami' in image) ok.push({ type, image });
        else {
          skipped.push(`${type}: ${image.missing}`);
          refused.set(image.missing, [...(refused.get(image.missing) ?? []), type]);
        }
      });
      if (ok.length === 0) {
        const why = [...refused].map(([missing, ts]) => `${missing}: ${ts.join(', ')} cannot launch.`);
        throw final(
          `${why.join(' ')} Set the image in the workspace's AWS settings, or choose instance types an image there runs.`,
        );
      }
      return { ok, skipped };
    },

    async subnets(p, workspaceId, spec) {
      // A zone asked for keeps the instance to the workspace's subnets there (or, with none chosen, to the zone).
      const ids =
        spec.zone && p.subnetIds.length ? await subnetsIn(ec2(workspaceId, p), p, spec.zone) : p.subnetIds;
      if (ids.length === 0) return [undefined];
      // Instances spread over the subnets; each tries the others when its own zone is short.
      const first = spec.instanceId % ids.length;
      return [...ids.slice(first), ...ids.slice(0, first)];
    },

    async launched(p, workspaceId, backendIds) {
      const answer = await ec2(workspaceId, p).send(
        new ec2Sdk.DescribeInstancesCommand({
          Filters: [
            { Name: `tag:${TAG.backendId}`, Values: backendIds },
            { Name: 'instance-state-name', Values: LAUNCHABLE },
          ],
        }),
      );
      const byId = new Map<string, Vm>();
      for (const i of answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? []) {
        const id = i.Tags?.find((t) => t.Key === TAG.backendId)?.Value;
        if (id && !byId.has(id)) byId.set(id, vmOf(i));
      }
      return byId;
    },

    async run(p, workspaceId, spec, choice) {
      const image = choice.image as { ami: string; device: string | null };
      const input = runInput(spec, p, {
        ami: image.ami,
        device: image.device,
        instanceType: choice.type,
        market: choice.market,
        subnet: choice.subnet,
        zone: choice.zone,
        clusterGroup: choice.firewall,
      });
      const made = (await ec2(workspaceId, p).send(new ec2Sdk.RunInstancesCommand(input))).Instances?.[0];
      if (!made?.InstanceId) throw retryable('EC2 answered RunInstances without an instance.');
      return vmOf(made);
    },
    nextChoice,
    classify,
    messageOf: awsMessage,

    async describe(p, workspaceId, ids) {
      const client = ec2(workspaceId, p);
      const byId = new Map<string, Vm>();
      for (let i = 0; i < ids.length; i += FILTER_VALUES) {
        const answer = await client.send(
          new ec2Sdk.DescribeInstancesCommand({
            Filters: [{ Name: 'instance-id', Values: ids.slice(i, i + FILTER_VALUES) }],
          }),
        );
        for (const inst of answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? [])
          if (inst.InstanceId) byId.set(inst.InstanceId, vmOf(inst));
      }
      return byId;
    },

    async terminate(p, workspaceId, id) {
      await ec2(workspaceId, p)
        .send(new ec2Sdk.TerminateInstancesCommand({ InstanceIds: [id] }))
        .catch((err: unknown) => {
          if (awsCode(err) !== 'InvalidInstanceID.NotFound') throw classify(err);
        });
    },

    firewall: {
      ensure: (p, workspaceId, { clusterId, spec }) =>
        ensureClusterGroup(ec2(workspaceId, p), p, { clusterId, workspaceId, spec }),
      remove: (p, workspaceId, clusterId) => deleteClusterGroup(ec2(workspaceId, p), p, clusterId),
    },
  };
}
