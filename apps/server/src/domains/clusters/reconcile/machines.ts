import { and, eq, isNull } from 'drizzle-orm';
import { type Backend, BackendError, type Observation } from '../../../compute/backend.js';
import type { Db } from '../../../db/client.js';
import {
  type Cluster,
  type ClusterProcess,
  clusterProcesses,
  type Instance,
  instances,
} from '../../../db/schema/index.js';
import { containerFor } from '../../software/index.js';
import { firewallOf } from '../firewall-spec.js';
import { memoryBytes } from '../hardware.js';
import { instanceShouldRun, isActiveProcess, isEnded } from '../states.js';
import { setInstanceState, setProcessState } from '../transitions.js';
import type { ClusterLoopContext } from './context.js';

/** A scheduler or worker with the instance it runs on. */
export interface Machine {
  process: ClusterProcess;
  instance: Instance | undefined;
}

export async function loadMachines(db: Db, clusterId: number): Promise<Machine[]> {
  const [processes, rows] = await Promise.all([
    db
      .select()
      .from(clusterProcesses)
      .where(eq(clusterProcesses.clusterId, clusterId))
      .orderBy(clusterProcesses.id),
    db.select().from(instances).where(eq(instances.clusterId, clusterId)),
  ]);
  const byProcess = new Map(rows.map((i) => [i.processId, i]));
  return processes.map((process) => ({ process, instance: byProcess.get(process.id) }));
}

export const isActive = (m: Machine) => isActiveProcess(m.process);
/** How a worker's agent reports it retired on EC2's spot interruption notice (preloads/aws_spot.py). */
export const SPOT_INTERRUPTION = 'Spot interruption:';
const wanted = (m: Machine): m is Machine & { instance: Instance } =>
  !!m.instance && instanceShouldRun(m.instance, m.process);
const launched = (m: Machine): m is Machine & { instance: Instance } =>
  !!m.instance?.launchedAt && !m.instance.releasedAt;

/** Fails a machine: its instance and process end in `error` with the reason. */
async function failMachine(db: Db, m: Machine, reason: string) {
  if (m.instance) await setInstanceState(db, m.instance, 'error', reason);
  await setProcessState(db, m.process, 'error', reason);
}

/** What an observation changes on the instance row: the cloud's addresses, when it started running. */
function observedChanges(instance: Instance, observed: Observation | undefined) {
  const changes: Partial<Pick<Instance, 'privateIpAddress' | 'publicIpAddress' | 'runningAt'>> = {};
  if (!observed) return changes;
  if (observed.privateIp && observed.privateIp !== instance.privateIpAddress)
    changes.privateIpAddress = observed.privateIp;
  if (observed.publicIp !== undefined && observed.publicIp !== instance.publicIpAddress)
    changes.publicIpAddress = observed.publicIp;
  if (observed.state === 'running' && !instance.runningAt) changes.runningAt = new Date();
  return changes;
}

/**
 * What the backend and the heartbeats say of the running machines: the addresses the backend
 * knows are recorded; an instance the backend no longer has, or silent past the heartbeat timeout
 * (`silence`), fails with the reason. One describe call for all of them. Answers whether anything failed.
 */
export async function observeMachines(
  ctx: ClusterLoopContext,
  backend: Backend,
  machines: Machine[],
): Promise<boolean> {
  const running = machines.filter((m) => wanted(m) && launched(m) && !isEnded(m.instance.state));
  if (running.length === 0) return false;
  const seen = await backend.describe(running.map((m) => m.instance!));
  const servingSince = ctx.servingSince();
  let failed = false;
  for (const m of running) {
    const instance = m.instance!;
    const observed = seen.get(instance.backendId);
    const changes = observedChanges(instance, observed);
    if (Object.keys(changes).length > 0) {
      await ctx.db.update(instances).set(changes).where(eq(instances.id, instance.id));
      Object.assign(instance, changes);
    }
    // Still waiting where the backend says why (a Slurm job's place in the queue): the instance and
    // its process say so, not a silent wait.
    if (observed?.state === 'pending' && observed.reason && instance.state === 'starting')
      await notePending(ctx.db, m, observed.reason);
    const silentFor = silence(instance, servingSince);
    let reason: string | undefined;
    if (observed?.state === 'gone')
      reason = `Instance ${instance.name} is gone${observed.reason ? `: ${observed.reason}` : ''}`;
    else if (silentFor > ctx.timings.heartbeatTimeoutMs)
      reason = `No heartbeat from instance ${instance.name} for ${Math.round(ctx.timings.heartbeatTimeoutMs / 1000)} seconds`;
    if (!reason) continue;
    await failMachine(ctx.db, m, reason);
    failed = true;
  }
  return failed;
}

/** Why a starting machine still waits, on its instance and its process (unchanged: nothing written). */
async function notePending(db: Db, m: Machine, reason: string) {
  const instance = m.instance!;
  if (instance.stateReason === reason) return;
  await db
    .update(instances)
    .set({ stateReason: reason })
    .where(and(eq(instances.id, instance.id), eq(instances.state, 'starting')));
  instance.stateReason = reason;
  if (m.process.state === 'starting' && m.process.stateReason !== reason) {
    await db
      .update(clusterProcesses)
      .set({ stateReason: reason })
      .where(and(eq(clusterProcesses.id, m.process.id), eq(clusterProcesses.state, 'starting')));
    m.process.stateReason = reason;
  }
}

/**
 * How long an instance has been silent as far as the control plane could hear it: since its last
 * heartbeat (before the first, since the backend saw it running: a VM boots first; still booting,
 * EC2 `pending`: no heartbeat is due yet), but never from before the control plane last started
 * serving, and not at all while it cannot tell when that was.
 */
function silence(instance: Instance, servingSince: Date | null): number {
  const heard = instance.lastHeartbeat ?? instance.runningAt;
  if (!heard || !servingSince) return 0;
  return Date.now() - Math.max(heard.getTime(), servingSince.getTime());
}

/** Where the cluster asked to run (backend options `region_name`, `zone_name`); else the workspace's default. */
export function placeOf(cluster: Pick<Cluster, 'options'>): { region?: string; zone?: string } {
  const { region_name: region, zone_name: zone } = (cluster.options.options ?? {}) as Record<string, unknown>;
  return {
    ...(typeof region === 'string' && region && { region }),
    ...(typeof zone === 'string' && zone && { zone }),
  };
}

/**
 * Launches every machine that should run and has not been launched. A final backend error fails
 * the machine with its reason; a retryable one leaves it queued and is thrown once the others have
 * been launched, so the runner backs the cluster off and shows why.
 */
export async function launchQueued(
  ctx: ClusterLoopContext,
  backend: Backend,
  cluster: Cluster,
  machines: Machine[],
) {
  const queued = machines.filter((m) => wanted(m) && m.instance.state === 'queued' && !m.instance.launchedAt);
  if (queued.length === 0) return;
  const token = ctx.secrets.decrypt(cluster.tokenBox);
  const types = (role: string) =>
    ((role === 'scheduler'
      ? cluster.options.scheduler_instance_types
      : cluster.options.worker_instance_types) ?? []) as string[];
  const backendOptions = (cluster.options.options ?? {}) as {
    spot?: unknown;
    spot_on_demand_fallback?: unknown;
  };
  const place = placeOf(cluster);
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  // Once EC2 has taken a spot worker back, its replacements run on demand where the policy allows
  // (`spot_with_fallback`): the same spot capacity is likely short again.
  const fallback = flag(backendOptions.spot_on_demand_fallback);
  const interrupted = machines.some((m) => m.process.stateReason.startsWith(SPOT_INTERRUPTION));
  const spot = interrupted && fallback ? false : flag(backendOptions.spot);
  const positive = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined);
  const diskOf = (role: string) => {
    const gib = positive(cluster.options[role === 'scheduler' ? 'scheduler_disk_size' : 'worker_disk_size']);
    const throughput = role === 'worker' ? positive(cluster.options.worker_disk_throughput) : undefined;
    return { ...(gib && { diskGib: gib }), ...(throughput && { diskThroughput: throughput }) };
  };
  const gpusOf = (role: string) => {
    const asked = backendOptions as Record<string, unknown>;
    const n = positive(asked[`${role}_accelerator_count`]);
    const kind = asked[`${role}_accelerator_type`];
    return n ? { gpus: n, ...(typeof kind === 'string' && kind && { gpuType: kind }) } : {};
  };
  const firewall = firewallOf(cluster.options);
  const container = await containerFor(ctx.db, cluster.softwareBuildId);
  const mib = (v: unknown) => {
    const bytes = memoryBytes(v);
    return bytes === null ? null : Math.ceil(bytes / 2 ** 20);
  };
  const sizeOf = (role: string) =>
    role === 'scheduler'
      ? {
          cores: positive(cluster.schedulerOptions.cpu) ?? 1,
          memoryMib: mib(cluster.schedulerOptions.memory),
        }
      : {
          cores: positive(cluster.workerOptions.nthreads) ?? cluster.workerCores,
          memoryMib: mib(cluster.workerOptions.memory_limit),
        };
  const results = await Promise.allSettled(
    queued.map(async (m) => {
      const instance = m.instance!;
      const backendData = await backend.launch({
        instanceId: instance.id,
        backendId: instance.backendId,
        role: instance.role,
        name: instance.name,
        clusterId: cluster.id,
        workspaceId: cluster.workspaceId,
        instanceTypes: types(instance.role),
        size: sizeOf(instance.role),
        ...gpusOf(instance.role),
        clusterToken: token,
        serverUrl: ctx.serverUrl,
        unreachableTimeoutMs: ctx.timings.agentUnreachableMs,
        spot,
        spotOnDemandFallback: fallback,
        ...(cluster.sshPublicKey && { sshPublicKey: cluster.sshPublicKey }),
        ...diskOf(instance.role),
        ...place,
        ...(firewall && { firewall }),
        ...(container && { container }),
      });
      // A cloud backend says which type it got (the first of those asked that had capacity) and why.
      const launchedType =
        typeof backendData.instanceType === 'string' ? backendData.instanceType : undefined;
      await ctx.db
        .update(instances)
        .set({ backendData, launchedAt: new Date(), ...(launchedType && { instanceType: launchedType }) })
        .where(eq(instances.id, instance.id));
      await setInstanceState(
        ctx.db,
        instance,
        'starting',
        typeof backendData.note === 'string' ? backendData.note : undefined,
      );
      await setProcessState(ctx.db, m.process, 'starting');
    }),
  );
  let retry: unknown;
  for (const [i, result] of results.entries()) {
    if (result.status === 'fulfilled') continue;
    const err = result.reason;
    if (err instanceof BackendError && !err.retryable)
      await failMachine(ctx.db, queued[i]!, `Could not launch: ${err.reason}`);
    else retry ??= err;
  }
  if (retry !== undefined) throw retry;
}

/**
 * Stops every launched machine that should not run, and marks released those the backend
 * confirms gone (and those never launched). Answers whether every instance of the cluster is released.
 */
export async function releaseUnwanted(
  ctx: ClusterLoopContext,
  backend: Backend,
  clusterId: number,
  machines: Machine[],
  reasonFor: (m: Machine) => string,
): Promise<boolean> {
  const unwanted = machines.filter((m) => m.instance && !wanted(m) && !m.instance.releasedAt);
  const never = unwanted.filter((m) => !m.instance!.launchedAt);
  const running = unwanted.filter(launched);
  await Promise.all(never.map((m) => released(ctx.db, m, reasonFor(m))));
  if (running.length > 0) {
    await Promise.all(
      running.map(async (m) => {
        if (!isEnded(m.instance.state)) await setInstanceState(ctx.db, m.instance, 'stopping', reasonFor(m));
        if (!isEnded(m.process.state)) await setProcessState(ctx.db, m.process, 'stopping', reasonFor(m));
        await backend.stop(m.instance);
      }),
    );
    const seen = await backend.describe(running.map((m) => m.instance));
    await Promise.all(
      running
        .filter((m) => seen.get(m.instance.backendId)?.state === 'gone')
        .map((m) => released(ctx.db, m, reasonFor(m))),
    );
  }
  const left = await ctx.db
    .select({ id: instances.id })
    .from(instances)
    .where(and(eq(instances.clusterId, clusterId), isNull(instances.releasedAt)));
  return left.length === 0;
}

/** The backend confirmed the machine gone: it ends (an errored one stays `error`). */
async function released(db: Db, m: Machine, reason: string) {
  await db
    .update(instances)
    .set({ desiredState: 'stopped', releasedAt: new Date() })
    .where(and(eq(instances.id, m.instance!.id), isNull(instances.releasedAt)));
  await setInstanceState(db, m.instance!, 'stopped', reason);
  await setProcessState(db, m.process, 'stopped', reason);
}
