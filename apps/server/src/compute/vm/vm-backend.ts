import type { Backend, BackendData, InstanceRef, LaunchSpec, MachineShape, Observation } from '../backend.js';
import { final, retryable } from '../errors.js';
import type { Vm, VmChoice, VmCloud, VmPlacement } from './cloud.js';

export interface VmBackendOptions {
  /** How long after launch a machine the cloud does not know yet counts as pending (UNKNOWN_GRACE_MS). */
  unknownGraceMs?: number;
  /** The cloud's name in what users read ("EC2"). */
  label: string;
}

/** How long a workspace's placement (its settings too) is held: a change reaches launches within this. */
export const PLACEMENT_TTL_MS = 5_000;
/**
 * Clouds are eventually consistent: a machine may be unknown to describe calls for a while after
 * the call that made it. Until this long after its launch, an unknown machine is still pending.
 */
export const UNKNOWN_GRACE_MS = 3 * 60_000;
/** Backend ids one lookup of earlier launches asks about. */
const LOOKUP_BATCH = 200;
/** Launches in flight at once per backend: a 200-worker cluster queues, not floods (clouds throttle). */
const LAUNCHES_AT_ONCE = 16;

interface VmData {
  instanceId?: string;
  workspaceId?: number;
  region?: string;
  launchedAt?: string;
}

/**
 * A backend whose instances are one VM each in a workspace's own cloud account: what every such
 * cloud shares, written once, around a cloud's ports (cloud.ts). Launches are found again by
 * their backend id (a launch repeated after a crash adopts the machine instead of making a
 * second); launches asked for together share one lookup; one describe per workspace and region
 * answers a whole reconcile pass; stop ends the machine; a cluster's own firewall is made once
 * for all its launches and removed when it has stopped.
 */
export function createVmBackend<P extends VmPlacement>(
  cloud: VmCloud<P>,
  options: VmBackendOptions,
): Backend {
  const unknownGraceMs = options.unknownGraceMs ?? UNKNOWN_GRACE_MS;
  const placements = new Map<string, { at: number; value: Promise<P | null> }>();

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

  async function placementOf(workspaceId: number, region?: string): Promise<P> {
    const key = `${workspaceId}:${region ?? ''}`;
    let held = placements.get(key);
    if (!held || Date.now() - held.at > PLACEMENT_TTL_MS) {
      held = { at: Date.now(), value: cloud.placementOf(workspaceId, region) };
      placements.set(key, held);
    }
    const placement = await held.value.catch((err: unknown) => {
      placements.delete(key);
      throw err;
    });
    if (!placement) throw final(cloud.notSetUp(region));
    return placement;
  }

  /** Earlier launches, asked about together: a pass launching 200 workers looks once, not 200 times. */
  const lookups = new Map<string, { ids: string[]; found: Promise<Map<string, Vm>> }>();
  function launchedBefore(p: P, workspaceId: number, backendId: string): Promise<Vm | undefined> {
    const key = `${workspaceId}:${p.region}`;
    let batch = lookups.get(key);
    if (!batch || batch.ids.length >= LOOKUP_BATCH) {
      const ids: string[] = [];
      const found = new Promise<Map<string, Vm>>((resolve, reject) =>
        setImmediate(() => {
          if (lookups.get(key)?.ids === ids) lookups.delete(key);
          cloud.launched(p, workspaceId, ids).then(resolve, reject);
        }),
      );
      batch = { ids, found };
      lookups.set(key, batch);
    }
    batch.ids.push(backendId);
    return batch.found.then(
      (byId) => byId.get(backendId),
      (err: unknown) => {
        throw cloud.classify(err);
      },
    );
  }

  const dataOf = (vm: Vm, workspaceId: number, region: string, extra: BackendData = {}): BackendData => ({
    instanceId: vm.id,
    region,
    workspaceId,
    instanceType: vm.type,
    spot: vm.spot,
    subnetId: vm.subnet,
    zone: vm.zone,
    launchedAt: (vm.launchedAt ?? new Date()).toISOString(),
    ...extra,
  });

  /** A cluster's own firewall, made once for all its launches. */
  const firewalls = new Map<string, Promise<string>>();
  const firewallKey = (workspaceId: number, region: string, clusterId: number) =>
    `${workspaceId}:${region}:${clusterId}`;
  function firewallOf(spec: LaunchSpec, p: P): Promise<string> | undefined {
    if (!spec.firewall || !cloud.firewall) return undefined;
    const key = firewallKey(spec.workspaceId, p.region, spec.clusterId);
    let group = firewalls.get(key);
    if (!group) {
      group = cloud.firewall.ensure(p, spec.workspaceId, { clusterId: spec.clusterId, spec: spec.firewall });
      firewalls.set(key, group);
      group.catch(() => firewalls.delete(key));
    }
    return group;
  }

  async function launch(spec: LaunchSpec): Promise<BackendData> {
    const p = await placementOf(spec.workspaceId, spec.region);
    const existing = await launchedBefore(p, spec.workspaceId, spec.backendId);
    if (existing) return dataOf(existing, spec.workspaceId, p.region, { adopted: true });
    const firewall = await firewallOf(spec, p);
    return slot(() => runVm(spec, p, firewall));
  }

  /**
   * The first choice the cloud accepts: instance types in order, spot then on-demand where
   * allowed, and each subnet (its zone) in turn when a zone lacks capacity or the type.
   */
  async function runVm(spec: LaunchSpec, p: P, firewall: string | undefined): Promise<BackendData> {
    const settings = cloud.settingsOf(p);
    const asked = spec.instanceTypes.length
      ? spec.instanceTypes
      : spec.role === 'scheduler'
        ? settings.schedulerTypes
        : settings.workerTypes;
    // Each type boots the image of its architecture; types no image runs are left out, saying why.
    const { ok: types, skipped } = await cloud.bootable(p, spec.workspaceId, asked);
    // Schedulers stay on demand: losing one loses the cluster.
    const spot = (spec.spot ?? settings.spot) && spec.role === 'worker';
    const markets: ('spot' | 'on-demand')[] = spot
      ? (spec.spotOnDemandFallback ?? settings.spotOnDemandFallback)
        ? ['spot', 'on-demand']
        : ['spot']
      : ['on-demand'];
    const subnets = await cloud.subnets(p, spec.workspaceId, spec);
    nextType: for (const bootable of types) {
      for (const market of markets) {
        for (const subnet of subnets) {
          const choice: VmChoice = { ...bootable, market, subnet, zone: spec.zone, firewall };
          try {
            const made = await cloud.run(p, spec.workspaceId, spec, choice);
            const note = skipped.length
              ? `Launched ${bootable.type}${market === 'spot' ? ' (spot)' : ''} after: ${skipped.join('; ')}`
              : undefined;
            return dataOf(made, spec.workspaceId, p.region, { ...(note && { note }) });
          } catch (err) {
            const next = cloud.nextChoice(err, bootable.type);
            if (!next) throw cloud.classify(err);
            const where = subnets.length > 1 && subnet ? ` in ${subnet}` : '';
            skipped.push(
              `${bootable.type}${market === 'spot' ? ' spot' : ''}${where}: ${cloud.messageOf(err)}`,
            );
            if (next === 'type') continue nextType;
            if (next === 'market') break;
          }
        }
      }
    }
    // Capacity may come back: the reconciler tries again later, showing why.
    throw retryable(
      `No capacity in ${p.region} for ${types.map((t) => t.type).join(', ')}: ${skipped.join('; ')}`,
    );
  }

  return {
    type: cloud.type,
    capabilities: cloud.capabilities,
    ports: cloud.ports,
    ...(cloud.builder && { builder: cloud.builder((workspaceId) => placementOf(workspaceId)) }),
    describeSelf: () => cloud.describeSelf(),

    machineFor(instanceTypes: readonly string[]): MachineShape {
      const known = instanceTypes.map((t) => cloud.shapeOf(t)).find((m) => m !== undefined);
      return known ?? cloud.shapeOf(cloud.defaultType)!;
    },

    async defaultInstanceTypes(workspaceId) {
      // A workspace not set up yet: its clusters fail at launch, saying why.
      return placementOf(workspaceId).then(
        (p) => {
          const { schedulerTypes, workerTypes } = cloud.settingsOf(p);
          return { scheduler: schedulerTypes, worker: workerTypes };
        },
        () => null,
      );
    },

    async spotWorkers(workspaceId, asked) {
      if (asked !== undefined) return asked;
      // A workspace not set up yet launches nothing; its clusters fail at launch, saying why.
      return placementOf(workspaceId).then(
        (p) => cloud.settingsOf(p).spot,
        () => false,
      );
    },

    launch,

    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const seen = new Map<string, Observation>();
      const groups = new Map<string, { workspaceId: number; region: string; refs: InstanceRef[] }>();
      for (const ref of refs) {
        const d = ref.backendData as VmData | null;
        if (!d?.instanceId || d.workspaceId === undefined || !d.region) {
          seen.set(ref.backendId, { state: 'gone', reason: `It was never launched in ${options.label}` });
          continue;
        }
        const key = `${d.workspaceId}:${d.region}`;
        const group = groups.get(key) ?? { workspaceId: d.workspaceId, region: d.region, refs: [] };
        group.refs.push(ref);
        groups.set(key, group);
      }
      await Promise.all(
        [...groups.values()].map(async (g) => {
          const p = { ...(await placementOf(g.workspaceId)), region: g.region };
          const ids = g.refs.map((r) => String((r.backendData as VmData).instanceId));
          const byId = await cloud.describe(p, g.workspaceId, ids).catch((err: unknown) => {
            throw cloud.classify(err);
          });
          for (const ref of g.refs) {
            const data = ref.backendData as Required<VmData>;
            const vm = byId.get(String(data.instanceId));
            if (!vm && Date.now() - Date.parse(data.launchedAt ?? '') < unknownGraceMs) {
              // Just launched: the cloud may not know it yet (eventual consistency).
              seen.set(ref.backendId, { state: 'pending' });
              continue;
            }
            if (!vm) {
              seen.set(ref.backendId, {
                state: 'gone',
                reason: `${options.label} does not know instance ${data.instanceId}`,
                privateIp: null,
                publicIp: null,
              });
              continue;
            }
            seen.set(ref.backendId, {
              state: vm.state,
              ...(vm.state === 'gone' && { reason: vm.reason }),
              privateIp: vm.privateIp,
              publicIp: vm.publicIp,
            });
          }
        }),
      );
      return seen;
    },

    async releaseCluster({ clusterId, workspaceId, region, firewall }) {
      // Its machines shared nothing else: a cluster without a firewall of its own has none to remove.
      if (!firewall || !cloud.firewall) return;
      const p = await placementOf(workspaceId, region);
      firewalls.delete(firewallKey(workspaceId, p.region, clusterId));
      await cloud.firewall.remove(p, workspaceId, clusterId);
    },

    async stop(ref: InstanceRef): Promise<void> {
      const d = ref.backendData as VmData | null;
      if (!d?.instanceId || d.workspaceId === undefined || !d.region) return;
      const p = await placementOf(d.workspaceId);
      await cloud.terminate({ ...p, region: d.region }, d.workspaceId, d.instanceId);
    },
  };
}
