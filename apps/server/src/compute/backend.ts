import type { Builder } from './builder.js';

import { final } from './errors.js';

export { BackendError, describeFailure, final, retryable } from './errors.js';

/**
 * Where instances run. The cluster reconciler (modules/clusters/reconcile/) asks a backend to
 * launch, describe and stop instances; nothing else touches processes or clouds.
 *
 * The contract every backend keeps:
 * - Every call is idempotent. The backend id of an instance is chosen before `launch` (and stored
 *   first), so launching an instance that already runs adopts it, and a control plane that crashed
 *   halfway — or a second replica — can simply call again.
 * - `describe` answers many instances in one call (one /proc scan, one DescribeInstances), keyed
 *   by backend id; an instance the backend does not know is `gone`.
 * - `stop` asks an instance to go away; it may return before it has (describe confirms `gone`).
 * - Failures are `BackendError`s: `retryable` (capacity, throttling, a cloud hiccup: the
 *   reconciler backs off and tries again) or final (permission, bad configuration: the instance
 *   fails with the reason). `reason` is written for the user who reads it on the cluster page.
 * - What a backend can do is declared in `capabilities`, never inferred from its type.
 */
export interface LaunchSpec {
  instanceId: number;
  /** Chosen before launch and unique across installations; the backend finds the instance by it. */
  backendId: string;
  role: 'scheduler' | 'worker';
  /** Names the instance for people (`<cluster>-scheduler`, `<cluster>-worker-<id>`). */
  name: string;
  clusterId: number;
  workspaceId: number;
  /** The instance types asked for, in order of preference (empty: the backend's default). */
  instanceTypes: readonly string[];
  clusterToken: string;
  /** The control plane's address as instances reach it. */
  serverUrl: string;
  /** How long the agent keeps trying to reach the control plane before it gives up and stops. */
  unreachableTimeoutMs: number;
  /** What it asks of a machine it shares (SSH hosts place it by this): its cores, and MiB of memory where it set a limit. */
  size?: { cores: number; memoryMib: number | null };
  /**
   * GPUs the instance asks (the cluster's `<role>_accelerator_count`): what a backend that places
   * them itself gives (Slurm's `gpu` GRES), and what a cloud attaches to a type that has none of
   * its own (Compute Engine's N1). Otherwise they come with the instance type.
   */
  gpus?: number;
  /** Their kind where the cluster named one (`<role>_accelerator_type`, `nvidia-tesla-t4`). */
  gpuType?: string;
  /** The cluster's purchase option, where it chose one (backend options `spot`, `spot_on_demand_fallback`). */
  spot?: boolean;
  spotOnDemandFallback?: boolean;
  /** The cluster's `ssh-ed25519 ...` line: a backend that serves SSH puts it in the machine's authorized_keys. */
  sshPublicKey?: string;
  /** GiB of disk the machine's root volume has, where the cluster chose (`worker_disk_size`, `scheduler_disk_size`). */
  diskGib?: number;
  /** MB/s of the root volume, where the cluster chose (`worker_disk_throughput`, AWS gp3). */
  diskThroughput?: number;
  /** Where the cluster asked to run (backend options `region_name`, `zone_name`); else the workspace's default. */
  region?: string;
  zone?: string;
  /** The cluster's own firewall (backend options `firewall_spec`), where it asked for one. */
  firewall?: FirewallSpec;
  /**
   * The cluster runs a container environment: the instance (its agent and Dask) runs in this image
   * (the pulled image's id), through the image's entrypoint unless told not to; `reference`: the
   * image as the environment names it, what a remote machine pulls (aws/container-script.ts).
   */
  container?: { image: string; reference: string; useEntrypoint: boolean };
}

/**
 * A cluster's own ingress rules (`firewall_spec`): each opens TCP ports to
 * an IPv4 CIDR, on top of what the workspace's network opens (the control plane, the cluster's own machines).
 */
export interface FirewallSpec {
  ingress: { ports: number[]; cidr: string }[];
}

/** A cluster as a backend knows it: where its machines ran. */
export interface ClusterRef {
  clusterId: number;
  workspaceId: number;
  /** The region it asked for (backend options `region_name`); else the workspace's default. */
  region?: string;
  /** Whether it had a firewall of its own (`firewall_spec`). */
  firewall?: boolean;
}

/**
 * Who a backend runs what tenants submit (cluster processes, builds) as: each cluster and build as
 * a user of its own (`users`), or the server's own user, which only the server's operator may then
 * use (`operator`, with the reason for the people it refuses).
 */
export type Tenancy = { mode: 'users' } | { mode: 'operator'; reason: string };

/** What a backend records about a launched instance to find it again after a restart. */
export type BackendData = Record<string, unknown>;

export interface InstanceRef {
  backendId: string;
  backendData: BackendData | null;
}

/** Where an instance stands as the backend sees it. */
export type ObservedState =
  /** Asked for, not running yet (a VM booting). */
  | 'pending'
  | 'running'
  /** Going away. */
  | 'stopping'
  /** Nothing of it runs any more (or the backend never had it). */
  | 'gone';

export interface Observation {
  state: ObservedState;
  /** Why, when the backend knows (a spot reclaim, a process that exited). */
  reason?: string;
  /** Addresses the backend knows (a cloud VM's; local instances report their own). */
  privateIp?: string | null;
  publicIp?: string | null;
}

/** The machine an instance gets, as the backend knows it (`instance_specs` calls). */
export interface MachineShape {
  instanceType: string;
  cores: number;
  memoryMib: number;
  gpus: number;
  arch: 'x86_64' | 'aarch64' | string;
}

/** The ports an instance's agent serves on (`portsOf`, else the backend's `ports`); undefined: any. */
export const portsFor = (
  backend: Pick<Backend, 'ports' | 'portsOf'>,
  instance: Pick<InstanceRef, 'backendId' | 'backendData'>,
): DaskPorts | undefined => backend.portsOf?.(instance) ?? backend.ports;

/** GPUs a backend places itself (`Backend.gpusOffered`). */
export interface GpusOffered {
  gpus: number;
  /** Why an instance of `asked` GPUs cannot run there (`asked` > `gpus`). */
  refusal(asked: number): string;
}

export interface BackendCapabilities {
  /** Instances run an SSH server the cluster's key opens. */
  ssh: boolean;
  /** The scheduler can serve the Dask dashboard. */
  dashboards: boolean;
  gpus: boolean;
  spot: boolean;
  /** A cluster may have its own firewall (`firewall_spec`): ingress rules its machines get, removed with it. */
  firewall: boolean;
  /** The kinds of software environment it builds (`pip`, `conda`, `container`). */
  builds: readonly ('pip' | 'conda' | 'container')[];
  /**
   * Instance types name labels of the backend's own machines (SSH hosts), not a catalogue's types:
   * any name is taken at creation, and placement refuses one no machine carries.
   */
  typesAreLabels?: boolean;
}

/** How the backend introduces itself to clients (`GET /api/v1/{ws}/backend_options/`). */
export interface BackendDescription {
  /** A backend type (`in_process`, `vm_aws`, `ssh`...). */
  backend: string;
  options: { provider_name: string } & Record<string, unknown>;
}

/** Ports Dask listens on where a backend fixes them (a cloud's firewall opens exactly these). */
export interface DaskPorts {
  scheduler: number;
  dashboard: number;
  /** Where a notebook cluster's scheduler instance serves Jupyter. */
  jupyter?: number;
}

export interface Backend {
  /** The backend type clients see (`in_process` for the local backend). */
  readonly type: string;
  readonly capabilities: BackendCapabilities;
  /** Fixed ports for the scheduler and its dashboard; unset: any free port (local processes). */
  readonly ports?: DaskPorts;
  /**
   * Ports fixed for one instance where the backend cannot see which process listens on its
   * machine (a Slurm job submitted through slurmrestd): its agent serves there, and the proxy takes
   * no other. Null or absent: `ports`, or `listensOn`.
   */
  portsOf?(instance: Pick<InstanceRef, 'backendId' | 'backendData'>): DaskPorts | null;
  /** How it builds software environments, if it can (capabilities' `builds` lists the kinds). */
  readonly builder?: Builder;
  describeSelf(): BackendDescription;
  /** The machine an instance would run on, for the instance types asked (first that fits). */
  machineFor(instanceTypes: readonly string[]): MachineShape;
  /**
   * Whether a cluster's workers would run on spot capacity: what it asked (its backend options'
   * `spot`), else the workspace's setting. Absent: the backend has no spot capacity.
   */
  spotWorkers?(workspaceId: number, asked: boolean | undefined): Promise<boolean>;
  /**
   * The instance types a workspace's clusters run when they name none (vm_aws: the Cloud page's
   * settings), so that what is recorded, built and counted for a cluster (its architecture, its
   * cores) is what it launches. Absent, or null: the backend's own default machine.
   */
  defaultInstanceTypes?(workspaceId: number): Promise<{ scheduler: string[]; worker: string[] } | null>;
  /**
   * Who tenants' code runs as on this backend's machines (for the workspace's clusters where that
   * differs by workspace: a Slurm cluster submitted to from the server's own machine). Absent:
   * machines of their own (a cloud VM per instance), which nothing else shares.
   */
  tenancy?(workspaceId: number): Promise<Tenancy>;
  /**
   * Where the backend places GPUs itself rather than by instance type (Slurm: the `gpu` GRES): the
   * GPUs one of the workspace's machines offers, and why an instance asking `asked` cannot run
   * there. Absent: GPUs come with instance types (`capabilities.gpus`).
   */
  gpusOffered?(workspaceId: number): Promise<GpusOffered>;
  /**
   * The kinds it builds for this workspace where they depend on how the workspace connected it (a
   * Slurm cluster reached through slurmrestd builds none). Absent: `capabilities.builds`.
   */
  buildsFor?(workspaceId: number): Promise<readonly ('pip' | 'conda' | 'container')[]>;
  launch(spec: LaunchSpec): Promise<BackendData>;
  /**
   * Removes what a cluster's machines shared (vm_aws: the cluster's security group; local: its
   * uid and what still runs under it), once every instance is gone; a repeat finds nothing left.
   * Absent: the backend makes nothing per cluster.
   */
  releaseCluster?(cluster: ClusterRef): Promise<void>;
  describe(instances: readonly InstanceRef[]): Promise<Map<string, Observation>>;
  stop(instance: InstanceRef): Promise<void>;
  /**
   * Whether one of the instance's own processes listens on this TCP address of this machine: how
   * a backend without fixed `ports` vouches for the port an agent says its scheduler serves the
   * dashboard or Jupyter on, before the proxy goes there. Absent: only fixed `ports` are taken.
   */
  listensOn?(instance: InstanceRef, address: { host: string; port: number }): Promise<boolean>;
}

/** Finds the backend of a cluster and of a workspace's new clusters. */
export interface Backends {
  /** The backend of workspaces that chose none (and of calls that name no workspace). */
  standard(): Backend;
  /** The backend new clusters of this workspace run on. */
  forWorkspace(workspaceId: number): Promise<Backend>;
  /** The backend a cluster runs on (by the type it was created with). */
  forCluster(cluster: { backendType: string; workspaceId: number }): Promise<Backend>;
}

/** Every cluster on one backend (the local one, or a test's). */
export function singleBackend(backend: Backend): Backends {
  return {
    standard: () => backend,
    forWorkspace: async () => backend,
    async forCluster(cluster) {
      if (cluster.backendType !== backend.type)
        throw final(`This server has no ${cluster.backendType} backend; the cluster cannot be managed here.`);
      return backend;
    },
  };
}

/**
 * The standard backend for workspaces that chose none, and cloud backends for those whose setup
 * chose one: `chosen` answers a workspace's backend type and what clients should know of it there
 * (its region...).
 */
export function workspaceBackends(
  standard: Backend,
  clouds: readonly Backend[],
  chosen: (workspaceId: number) => Promise<{ type: string; options?: Record<string, unknown> }>,
): Backends {
  const byType = new Map([standard, ...clouds].map((b) => [b.type, b]));
  return {
    standard: () => standard,
    async forWorkspace(workspaceId) {
      const choice = await chosen(workspaceId);
      const backend = byType.get(choice.type) ?? standard;
      if (!choice.options || backend === standard) return backend;
      const self = backend.describeSelf();
      return {
        ...backend,
        describeSelf: () => ({ ...self, options: { ...self.options, ...choice.options } }),
      };
    },
    async forCluster(cluster) {
      const backend = byType.get(cluster.backendType);
      if (!backend)
        throw final(`This server has no ${cluster.backendType} backend; the cluster cannot be managed here.`);
      return backend;
    },
  };
}
