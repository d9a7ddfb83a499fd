/**
 * Where instances run. The control loop asks a backend to launch and stop instances and nothing
 * else touches processes or clouds. Every method is idempotent: launching an instance that is
 * already running adopts it, stopping one that is gone succeeds, so a loop that crashed halfway
 * (or a second replica) can simply do it again.
 */
export interface LaunchSpec {
  instanceId: number;
  /** Chosen before launch and unique across installations; the backend finds the instance by it. */
  backendId: string;
  clusterToken: string;
  /** The control plane's address as instances reach it. */
  serverUrl: string;
  /** How long the agent keeps trying to reach the control plane before it gives up and stops. */
  unreachableTimeoutMs: number;
}

/** What a backend records about a launched instance to find it again after a restart. */
export type BackendData = Record<string, unknown>;

export interface InstanceRef {
  backendId: string;
  backendData: BackendData | null;
}

/** The machine an instance gets, as the backend knows it (`instance_specs` calls). */
export interface MachineShape {
  instanceType: string;
  cores: number;
  memoryMib: number;
  gpus: number;
  arch: 'x86_64' | 'aarch64' | string;
}

export interface Backend {
  /** The backend type clients see (`in_process` for the local backend). */
  readonly type: string;
  /** Whether its instances run an SSH server the cluster's key opens (local processes do not). */
  readonly offersSsh: boolean;
  /** The machine an instance would run on, for the instance types asked (first that fits). */
  machineFor(instanceTypes: readonly string[]): MachineShape;
  launch(spec: LaunchSpec): Promise<BackendData>;
  stop(instance: InstanceRef): Promise<void>;
  /** Whether anything of the instance is still running. */
  isRunning(instance: InstanceRef): Promise<boolean>;
}
