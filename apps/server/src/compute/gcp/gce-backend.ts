import type { InstancesClient, protos, RegionsClient, ZoneOperationsClient } from '@google-cloud/compute';
import { CLUSTER_PORTS } from '../aws/network.js';
import { userDataScript } from '../aws/user-data.js';
import type { Backend, LaunchSpec, MachineShape, ObservedState } from '../backend.js';
import { final, retryable } from '../errors.js';
import type { Podman } from '../podman.js';
import { type Bootable, notSetUpIn, type Vm, type VmCloud, vmSettingsOf } from '../vm/cloud.js';
import { withContainerChecks } from '../vm/container-builds.js';
import { createVmBackend } from '../vm/vm-backend.js';
import { vmType } from '../vm-types.js';
import { createGcsArchives } from './archives.js';
import { authClientOf, credentialId } from './auth.js';
import { createGceBuilder, type GceMachineCalls } from './build-machines.js';
import { deleteClusterFirewall, ensureClusterFirewall, type GceFirewallClients } from './cluster-firewall.js';
import { classify, failureOf, GceOperationError, messageOf, nextChoice } from './errors.js';
import type { GcePlacement } from './placement.js';
import { compute } from './sdk.js';

type Instance = protos.google.cloud.compute.v1.IInstance;
type Operation = protos.google.cloud.compute.v1.IOperation;

export interface GceBackendOptions {
  placementOf(workspaceId: number, region?: string): Promise<GcePlacement | null>;
  shapeOf(type: string): MachineShape | undefined;
  /** Compute Engine's API root (`CUMULUS_GCP_COMPUTE_URL`) and the token endpoint keys are exchanged at. */
  computeUrl: string;
  tokenUrl: string;
  /** The server's metadata server: tokens of its own service account (workload identity). */
  metadataUrl: string;
  /** Cloud Storage's API root (`CUMULUS_GCP_STORAGE_URL`) and this server's public URL: the workspaces' archive buckets. */
  storage?: { storageUrl: string; serverUrl: string };
  /** The boot image per architecture (`CUMULUS_GCP_IMAGE`, `CUMULUS_GCP_IMAGE_ARM64`), and of GPU VMs (`CUMULUS_GCP_IMAGE_GPU`). */
  images: { x86_64: string; arm64: string; gpu: string };
  unknownGraceMs?: number;
  /** Checks container images on this server (vm/container-builds.ts); unset: no container environments. */
  podman?: Podman;
}

/** Labels every instance carries: what finds it again (after a restart too) and what costs are tracked by. */
export const LABEL = {
  backendId: 'cumulus-backend-id',
  cluster: 'cumulus-cluster',
  workspace: 'cumulus-workspace',
  role: 'cumulus-role',
};

const OBSERVED: Record<string, ObservedState> = {
  PROVISIONING: 'pending',
  STAGING: 'pending',
  RUNNING: 'running',
  STOPPING: 'stopping',
  SUSPENDING: 'stopping',
  SUSPENDED: 'gone',
  TERMINATED: 'gone',
};
const DEFAULT_TYPE = 'e2-standard-4';
const GONE: Vm = {
  id: '',
  type: null,
  spot: false,
  zone: null,
  subnet: null,
  launchedAt: null,
  state: 'gone',
  privateIp: null,
  publicIp: null,
};
const GCE_TYPE = /^[a-z][a-z0-9]*-[a-z0-9-]+$/;

/**
 * What vm_gcp offers: pip environments built on a build machine (build-machines.ts), and container
 * environments where this server has podman (their images checked here, vm/container-builds.ts;
 * each VM runs its agent in the image, aws/container-script.ts).
 */
export const gceCapabilities = (containers: boolean): Backend['capabilities'] => ({
  ssh: true,
  dashboards: true,
  gpus: true,
  spot: true,
  firewall: true,
  builds: containers ? ['pip', 'container'] : ['pip'],
});

/** `vm_gcp`: one Compute Engine instance per scheduler and worker, in the workspace's own project. */
export function createGceBackend(options: GceBackendOptions): Backend {
  return createVmBackend(gceCloud(options), {
    label: 'Compute Engine',
    unknownGraceMs: options.unknownGraceMs,
  });
}

const last = (url: string | null | undefined) => (url ?? '').split('/').pop() ?? '';

/** An instance as every VM backend sees a machine; its id is `zone/name`, what get and delete take. */
function vmOf(i: Instance): Vm {
  const status = i.status ?? 'TERMINATED';
  const state = OBSERVED[status] ?? 'pending';
  const nic = i.networkInterfaces?.[0];
  return {
    id: `${last(i.zone)}/${i.name}`,
    type: last(i.machineType) || null,
    spot: i.scheduling?.provisioningModel === 'SPOT',
    zone: last(i.zone) || null,
    subnet: null,
    launchedAt: i.creationTimestamp ? new Date(i.creationTimestamp) : null,
    state,
    ...(state === 'gone' && { reason: `Compute Engine instance ${status.toLowerCase()}` }),
    privateIp: nic?.networkIP ?? null,
    publicIp: nic?.accessConfigs?.[0]?.natIP ?? null,
  };
}

/** Who clients sign in as on a cluster's VMs (client-contract 2.5: `ubuntu`, whatever the image). */
const SSH_USER = 'ubuntu';

/** An instance name from a backend id (`vm_gcp-1a2b3c4d`): lower case, letters first, 63 at most. */
const nameOf = (backendId: string) =>
  `cumulus-${backendId.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`.slice(0, 63);
const labelValue = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(0, 63);

/**
 * A VM's GPUs: those of its type (G2, A2), or the GPUs asked attached to a type that has none
 * (`guestAccelerators` on N1: the kind asked, else the type's attachable kind). Either way the GPU
 * image, where the type is x86_64 (no GPU type of the catalogue is Arm).
 */
function gpusOf(
  spec: LaunchSpec,
  type: string,
  zone: string,
  images: GceBackendOptions['images'],
): { on: boolean; image?: string; attach?: { acceleratorType: string; acceleratorCount: number } } {
  const t = vmType(type);
  const asked = spec.gpus ?? 0;
  const attachTo = asked > 0 && t && t.gpus === 0;
  if (!attachTo && !t?.gpus) return { on: false };
  const image = t?.arch === 'arm64' ? undefined : images.gpu;
  if (!attachTo) return { on: true, image };
  const kind = spec.gpuType ?? t.attachable?.gpuName ?? 'nvidia-tesla-t4';
  return {
    on: true,
    image,
    attach: { acceleratorType: `zones/${zone}/acceleratorTypes/${kind}`, acceleratorCount: asked },
  };
}

/** Compute Engine's ports of a VM backend: its clients, images by architecture, zones of a region. */
export function gceCloud(options: GceBackendOptions): VmCloud<GcePlacement> {
  const url = new URL(options.computeUrl);
  const clients = new Map<
    string,
    {
      instances: InstancesClient;
      operations: ZoneOperationsClient;
      regions: RegionsClient;
    } & GceFirewallClients
  >();
  function clientsOf(p: GcePlacement) {
    const { credential } = p;
    const key = credentialId(credential);
    let found = clients.get(key);
    if (!found) {
      const opts = {
        apiEndpoint: url.hostname,
        port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        protocol: url.protocol.replace(':', ''),
        fallback: true,
        authClient: authClientOf(credential, options),
      };
      found = {
        instances: new compute.InstancesClient(opts),
        operations: new compute.ZoneOperationsClient(opts),
        regions: new compute.RegionsClient(opts),
        firewalls: new compute.FirewallsClient(opts),
        globalOperations: new compute.GlobalOperationsClient(opts),
      };
      clients.set(key, found);
    }
    return found;
  }

  /**
   * Instances this server deleted (the delete's operation DONE): Compute Engine forgets a deleted
   * instance at once, where EC2 shows a terminated one for an hour, so without this describe would
   * take it for one just launched that the API does not know yet (vm-backend's grace).
   */
  const deleted = new Set<string>();

  /** The region's zones, asked of Compute Engine once per project and region. */
  const zones = new Map<string, Promise<string[]>>();
  function zonesOf(p: GcePlacement): Promise<string[]> {
    const key = `${p.project}:${p.region}`;
    let found = zones.get(key);
    if (!found) {
      found = clientsOf(p)
        .regions.get({ project: p.project, region: p.region })
        .then(([r]) => (r.zones ?? []).map(last).sort());
      zones.set(key, found);
      found.catch(() => zones.delete(key));
    }
    return found;
  }

  /** Waits for an operation (operations.wait answers within two minutes, DONE or not); a failed one throws. */
  async function finish(p: GcePlacement, zone: string, op: Operation): Promise<void> {
    let o = op;
    while (o.status !== 'DONE')
      [o] = await clientsOf(p).operations.wait({ project: p.project, zone, operation: o.name! });
    const error = o.error?.errors?.[0];
    if (error) throw new GceOperationError(error.code ?? '', error.message ?? 'the operation failed');
  }

  /** The workspace's instances, by the label every one carries (one aggregated list per region's call). */
  async function instancesOf(p: GcePlacement, workspaceId: number): Promise<Instance[]> {
    const found: Instance[] = [];
    const iterable = clientsOf(p).instances.aggregatedListAsync({
      project: p.project,
      filter: `labels.${LABEL.workspace} = "${workspaceId}"`,
    });
    for await (const [scope, list] of iterable)
      if (scope.startsWith('zones/') && scope.slice(6).startsWith(`${p.region}-`))
        found.push(...(list.instances ?? []));
    return found;
  }

  /** What the build machines ask of Compute Engine (build-machines.ts). */
  const machineCalls: GceMachineCalls = {
    zonesOf,
    async insert(p, zone, instanceResource) {
      try {
        const [op] = await clientsOf(p).instances.insert({ project: p.project, zone, instanceResource });
        await finish(p, zone, op.latestResponse as Operation);
      } catch (err) {
        // Inserted before (the same attempt's name): that machine is the build's.
        if (failureOf(err).code !== 409) throw classify(err);
      }
    },
    async labelled(p, key, value) {
      const found: { zone: string; name: string }[] = [];
      const iterable = clientsOf(p).instances.aggregatedListAsync({
        project: p.project,
        filter: `labels.${key} = "${value}"`,
      });
      for await (const [scope, list] of iterable)
        if (scope.startsWith('zones/'))
          for (const i of list.instances ?? []) found.push({ zone: scope.slice(6), name: i.name! });
      return found;
    },
    async remove(p, zone, name) {
      try {
        const [op] = await clientsOf(p).instances.delete({ project: p.project, zone, instance: name });
        await finish(p, zone, op.latestResponse as Operation);
      } catch (err) {
        if (failureOf(err).code !== 404) throw classify(err);
      }
    },
  };

  return {
    type: 'vm_gcp',
    // GPUs: the types' own (G2, A2) or attached (N1). A cluster's own firewall: VPC firewall rules
    // aimed at its network tag (cluster-firewall.ts).
    capabilities: gceCapabilities(!!options.podman),
    ports: { scheduler: CLUSTER_PORTS[0], dashboard: CLUSTER_PORTS[1], jupyter: CLUSTER_PORTS[2] },
    describeSelf: () => ({
      backend: 'vm_gcp',
      options: { provider_name: 'gcp', scheduler_port: CLUSTER_PORTS[0] },
    }),
    shapeOf: options.shapeOf,
    defaultType: DEFAULT_TYPE,
    // Pip environments are built on a build machine per build (build-machines.ts), instances unpack
    // the archive at boot; container images are checked on this server (vm/container-builds.ts).
    builder: (placementOf) =>
      withContainerChecks(
        createGceBuilder({
          placementOf,
          calls: machineCalls,
          shapeOf: options.shapeOf,
          images: options.images,
          labels: { backendId: LABEL.backendId, workspace: LABEL.workspace, role: LABEL.role },
          ...(options.storage && {
            archives: createGcsArchives({
              placementOf,
              ...options.storage,
              tokenUrl: options.tokenUrl,
              metadataUrl: options.metadataUrl,
            }),
          }),
        }),
        options.podman,
      ),

    placementOf: options.placementOf,
    notSetUp: notSetUpIn('GCP'),
    settingsOf: (p) => vmSettingsOf(p.settings),

    async bootable(_p, _workspaceId, asked) {
      const valid = asked.filter((t) => GCE_TYPE.test(t) && !t.includes('.'));
      if (valid.length === 0)
        throw final(`None of ${asked.join(', ') || 'the instance types'} is a Compute Engine machine type.`);
      const ok: Bootable[] = valid.map((type) => ({
        type,
        image: {
          source: options.shapeOf(type)?.arch === 'aarch64' ? options.images.arm64 : options.images.x86_64,
        },
      }));
      return { ok, skipped: [] };
    },

    async subnets(p, _workspaceId, spec) {
      // GCP's subnets span a region: what a launch chooses among is the zone.
      if (spec.zone) return [spec.zone];
      const all = await zonesOf(p).catch((err: unknown) => {
        throw classify(err);
      });
      const first =
        p.settings.zone && all.includes(p.settings.zone)
          ? all.indexOf(p.settings.zone)
          : spec.instanceId % all.length;
      return [...all.slice(first), ...all.slice(0, first)];
    },

    async launched(p, workspaceId, backendIds) {
      // Label values are lower case: each backend id by its label's value.
      const wanted = new Map(backendIds.map((id) => [labelValue(id), id]));
      const byId = new Map<string, Vm>();
      for (const i of await instancesOf(p, workspaceId)) {
        const id = wanted.get(i.labels?.[LABEL.backendId] ?? '');
        const vm = vmOf(i);
        if (id && vm.state !== 'gone' && vm.state !== 'stopping' && !byId.has(id)) byId.set(id, vm);
      }
      return byId;
    },

    async run(p, workspaceId, spec, choice) {
      const zone = choice.subnet ?? choice.zone;
      if (!zone) throw final(`No zone of ${p.region} to launch in.`);
      const name = nameOf(spec.backendId);
      const gpu = gpusOf(spec, choice.type, zone, options.images);
      const instanceResource: Instance = {
        name,
        machineType: `zones/${zone}/machineTypes/${choice.type}`,
        labels: {
          [LABEL.backendId]: labelValue(spec.backendId),
          [LABEL.cluster]: String(spec.clusterId),
          [LABEL.workspace]: String(workspaceId),
          [LABEL.role]: spec.role,
        },
        // The cluster's own firewall's rules target its tag (cluster-firewall.ts).
        tags: { items: [...p.targetTags, ...(choice.firewall ? [choice.firewall] : [])] },
        metadata: {
          items: [
            // The cluster's key for the user clients sign in as: Google's guest environment makes the
            // account and its authorized_keys from `ssh-keys` (USER:KEY), so the script adds no key.
            { key: 'startup-script', value: userDataScript({ ...spec, sshPublicKey: undefined }) },
            ...(spec.sshPublicKey
              ? [{ key: 'ssh-keys', value: `${SSH_USER}:${spec.sshPublicKey.trim()}` }]
              : []),
            // The Deep Learning VM image installs NVIDIA's driver at first boot when asked.
            ...(gpu.on ? [{ key: 'install-nvidia-driver', value: 'True' }] : []),
          ],
        },
        disks: [
          {
            boot: true,
            autoDelete: true,
            initializeParams: {
              sourceImage: gpu.image ?? (choice.image as { source: string }).source,
              diskSizeGb: String(spec.diskGib ?? p.settings.disk_size_gib),
            },
          },
        ],
        ...(gpu.attach && { guestAccelerators: [gpu.attach] }),
        networkInterfaces: [
          {
            network: `global/networks/${p.network}`,
            subnetwork: `regions/${p.region}/subnetworks/${p.subnet}`,
            accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }],
          },
        ],
        ...((choice.market === 'spot' || gpu.on) && {
          scheduling: {
            // Spot VMs: taken back at Google's will, deleted rather than stopped (nothing to restart).
            ...(choice.market === 'spot' && {
              provisioningModel: 'SPOT',
              instanceTerminationAction: 'DELETE',
            }),
            // A VM with GPUs cannot be live-migrated: Google requires it to stop for host maintenance.
            ...(gpu.on && { onHostMaintenance: 'TERMINATE' }),
          },
        }),
      };
      const { instances } = clientsOf(p);
      try {
        const [op] = await instances.insert({ project: p.project, zone, instanceResource });
        await finish(p, zone, op.latestResponse as Operation);
      } catch (err) {
        if (failureOf(err).code !== 409) throw err;
        // Its name is taken in the zone: by this very launch's earlier insert (its answer lost, and
        // the list by label not showing it yet), which is adopted; by anything else, refused.
        const [there] = await instances.get({ project: p.project, zone, instance: name });
        if (there.labels?.[LABEL.backendId] !== labelValue(spec.backendId))
          throw final(
            `${zone} has an instance named ${name} that Cumulus did not launch for this cluster.`,
            err,
          );
        return vmOf(there);
      }
      const [made] = await instances.get({ project: p.project, zone, instance: name });
      if (!made.name) throw retryable('Compute Engine answered the insert without an instance.');
      return vmOf(made);
    },
    nextChoice,
    classify,
    messageOf,

    async describe(p, workspaceId, ids) {
      const wanted = new Set(ids);
      const byId = new Map<string, Vm>();
      for (const i of await instancesOf(p, workspaceId)) {
        const vm = vmOf(i);
        if (wanted.has(vm.id)) byId.set(vm.id, vm);
      }
      for (const id of ids)
        if (!byId.has(id) && deleted.has(id))
          byId.set(id, { ...GONE, id, reason: 'Compute Engine instance deleted' });
      return byId;
    },

    async terminate(p, _workspaceId, id) {
      const [zone, name] = id.split('/') as [string, string];
      try {
        const [op] = await clientsOf(p).instances.delete({ project: p.project, zone, instance: name });
        await finish(p, zone, op.latestResponse as Operation);
      } catch (err) {
        if (failureOf(err).code !== 404) throw classify(err);
      }
      deleted.add(id);
    },

    firewall: {
      ensure: (p, workspaceId, { clusterId, spec }) =>
        ensureClusterFirewall(clientsOf(p), p, { workspaceId, clusterId, spec }),
      remove: (p, workspaceId, clusterId) => deleteClusterFirewall(clientsOf(p), p, workspaceId, clusterId),
    },
  };
}
