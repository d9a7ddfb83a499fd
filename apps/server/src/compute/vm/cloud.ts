import type {
  BackendCapabilities,
  BackendDescription,
  DaskPorts,
  FirewallSpec,
  LaunchSpec,
  MachineShape,
  ObservedState,
} from '../backend.js';
import type { Builder } from '../builder.js';
import type { BackendError } from '../errors.js';

/**
 * What one cloud brings to a VM backend (vm-backend.ts writes the rest once: placement caching,
 * launches in turn, adoption by backend id, the choice of type, market and zone, describe in
 * batches, firewall bookkeeping, stop). Each port is a cloud's own words for one thing every VM
 * cloud has: credentials and network (the placement), machine types and their images, the
 * machines themselves, a cluster's firewall, and what its errors mean.
 */
export interface VmPlacement {
  region: string;
}

/** A workspace's launch defaults in a placement (the Cloud page's settings). */
export interface VmSettings {
  schedulerTypes: string[];
  workerTypes: string[];
  spot: boolean;
  spotOnDemandFallback: boolean;
}

/** A workspace's launch settings as the Cloud page stores them, the same for every VM cloud. */
export interface StoredVmSettings {
  worker_instance_types: string[];
  scheduler_instance_types: string[];
  spot: boolean;
  spot_on_demand_fallback: boolean;
  disk_size_gib: number;
}

/** The stored settings in the words of vm-backend.ts. */
export const vmSettingsOf = (s: StoredVmSettings): VmSettings => ({
  schedulerTypes: s.scheduler_instance_types,
  workerTypes: s.worker_instance_types,
  spot: s.spot,
  spotOnDemandFallback: s.spot_on_demand_fallback,
});

/** What a user reads when the workspace's setup of a cloud (`AWS`, `GCP`) is not complete there. */
export const notSetUpIn =
  (cloud: string) =>
  (region: string | undefined): string =>
    region
      ? `${region} is not one of the workspace's set-up ${cloud} regions (or its ${cloud} setup is not complete).`
      : `The workspace's ${cloud} setup is not complete (credentials, global setup and a region).`;

/** A machine as the cloud describes it. */
export interface Vm {
  id: string;
  type: string | null;
  spot: boolean;
  zone: string | null;
  /** The network it sits in, where the cloud has one per zone (an AWS subnet). */
  subnet: string | null;
  launchedAt: Date | null;
  state: ObservedState;
  /** Why it is gone, in the cloud's words. */
  reason?: string;
  privateIp: string | null;
  publicIp: string | null;
}

/** A type that can launch, with what the cloud needs to boot it (its image). */
export interface Bootable {
  type: string;
  image: Record<string, unknown>;
}

/** One launch attempt: a type, a market and where (a subnet, a zone). */
export interface VmChoice extends Bootable {
  market: 'spot' | 'on-demand';
  /** A subnet of the placement, when it has them. */
  subnet: string | undefined;
  zone: string | undefined;
  /** The cluster's own firewall's id, besides the workspace's. */
  firewall: string | undefined;
}

export interface VmCloud<P extends VmPlacement> {
  readonly type: string;
  readonly capabilities: BackendCapabilities;
  readonly ports: DaskPorts;
  describeSelf(): BackendDescription;
  /** The catalogue's machine of a type, and the type a cluster that names none is sized as. */
  shapeOf(type: string): MachineShape | undefined;
  readonly defaultType: string;

  /** The workspace's placement in a region (its default one without), null when it is not set up there. */
  placementOf(workspaceId: number, region?: string): Promise<P | null>;
  /** What the user reads when `placementOf` found none. */
  notSetUp(region: string | undefined): string;
  settingsOf(placement: P): VmSettings;
  /** Builds on the cloud's machines, given the backend's (cached) placements. */
  builder?(placementOf: (workspaceId: number) => Promise<P>): Builder;

  /**
   * Of the types asked, those an image boots (with it), and for the others why not; throws the
   * final error when none can launch or none is a type of this cloud.
   */
  bootable(
    placement: P,
    workspaceId: number,
    types: readonly string[],
  ): Promise<{ ok: Bootable[]; skipped: string[] }>;
  /** Where an instance may launch, in the order to try (subnets of a zone asked for); `[undefined]`: anywhere. */
  subnets(placement: P, workspaceId: number, spec: LaunchSpec): Promise<(string | undefined)[]>;
  /** Machines launched before with these backend ids (a launch repeated after a crash adopts one). */
  launched(placement: P, workspaceId: number, backendIds: string[]): Promise<Map<string, Vm>>;
  run(placement: P, workspaceId: number, spec: LaunchSpec, choice: VmChoice): Promise<Vm>;
  /** Which other choice may mend a failed launch: another zone, the other market, the next type. */
  nextChoice(err: unknown, type: string): 'zone' | 'market' | 'type' | null;
  /** A failure in the user's words, and whether trying again can help. */
  classify(err: unknown): BackendError;
  /** The cloud's own message of an error (said in a launch's notes). */
  messageOf(err: unknown): string;
  describe(placement: P, workspaceId: number, ids: string[]): Promise<Map<string, Vm>>;
  /** Ends a machine; one already gone is fine. */
  terminate(placement: P, workspaceId: number, id: string): Promise<void>;
  /** A cluster's own firewall (`firewall_spec`), where the cloud has one. */
  firewall?: {
    ensure(
      placement: P,
      workspaceId: number,
      cluster: { clusterId: number; spec: FirewallSpec },
    ): Promise<string>;
    remove(placement: P, workspaceId: number, clusterId: number): Promise<void>;
  };
}
