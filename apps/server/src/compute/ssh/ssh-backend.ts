import { instanceVars, userDataScript } from '../aws/user-data.js';
import {
  type Backend,
  type BackendData,
  final,
  type InstanceRef,
  type LaunchSpec,
  type MachineShape,
  type Observation,
} from '../backend.js';
import { backendErrorOf, runOn, SshFailure, type SshTarget } from './connection.js';
import {
  detachedCommand,
  quote,
  safeId,
  startedAs,
  startFailure,
  stopScript,
  whyFailed,
} from './detached.js';
import { cudaVisibleDevices, gpuCounts, gpuDevicesFor, placeOn, withLabels } from './placement.js';
import { createSshBuilder } from './ssh-builder.js';
import { agentCacheOf, keepWarm, poolOf, type SshWarmOptions, takeScript, tookWarm } from './warm.js';

/** A registered host, its key unsealed: what the backend reaches and fills. */
export interface SshHost extends SshTarget {
  id: number;
  workspaceId: number;
  cores: number;
  memoryMib: number;
  gpus: number;
  labels: string[];
  /** The interpreter with `distributed` on the host. */
  python: string;
}

/** One instance on a host, recorded before its agent starts. */
export interface SshPlacement {
  backendId: string;
  hostId: number;
  clusterId: number;
  cores: number;
  memoryMib: number;
  gpus: number;
  /** The host's GPU indices it holds (its `CUDA_VISIBLE_DEVICES`). */
  gpuDevices: number[];
}

/** What the backend needs of the host registry (domains/cloud/ssh-hosts). */
export interface SshHostsPort {
  /** The workspace's hosts whose last check passed. */
  healthyHosts(workspaceId: number): Promise<SshHost[]>;
  /** A host by id (whatever its health), null once removed. */
  host(workspaceId: number, hostId: number): Promise<SshHost | null>;
  placementOf(backendId: string): Promise<SshPlacement | null>;
  /**
   * Places an instance on one of `hostIds`: `choose` is given what is placed there now and
   * answers the placement, recorded before anyone else (another server of the same database
   * included) reads those hosts' placements; what `choose` throws is thrown.
   */
  placeOnOneOf(hostIds: number[], choose: (placed: SshPlacement[]) => SshPlacement): Promise<SshPlacement>;
  unplace(backendId: string): Promise<void>;
}

export interface SshBackendOptions {
  hosts: SshHostsPort;
  /** How long a host may be unreachable before its instances count as lost. */
  lostAfterMs: number;
  stopGraceMs: number;
  /** Warm processes on each host (warm.ts), which plain instances take; absent or 0: each starts cold. */
  warm?: SshWarmOptions;
  /** After a take, how long until the host's pool is filled again (not competing with that start). */
  refillDelayMs?: number;
}

/** Where an instance went (its backend data). */
interface Where {
  hostId: number;
  workspaceId: number;
}

const whereOf = (ref: InstanceRef): Where | null => {
  const d = ref.backendData;
  return typeof d?.hostId === 'number' && typeof d.workspaceId === 'number'
    ? { hostId: d.hostId, workspaceId: d.workspaceId }
    : null;
};

/** A launch's place: the host and GPUs it was given, or what already runs there (adopted). */
type Placed = { host: SshHost; gpuDevices: number[] } | { adopted: BackendData };

/** What an instance that sets no memory limit is counted for on its host. */
const DEFAULT_MIB = 1024;

/**
 * Prints the backend ids of the account's live processes (agents and Dask alike carry theirs), and
 * those of instances whose processes carry the id of the warm process they took (warm.ts).
 */
const LIST = `ids=$(grep -zh '^CUMULUS_BACKEND_ID=' /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | sort -u)
printf '%s\\n' "$ids"
for f in "$HOME"/.cumulus/*/warm; do
  [ -f "$f" ] && read -r w <"$f" || continue
  case "
$ids
" in *"
CUMULUS_BACKEND_ID=$w
"*) d=\${f%/warm}; echo "CUMULUS_BACKEND_ID=\${d##*/}" ;; esac
done; true`;

/**
 * Removes an instance's container once its processes are gone (where it ran one: its start wrote
 * the engine to `~/.cumulus/<id>/engine`), so nothing of it is left on the host.
 */
const removeContainer = (backendId: string) => {
  const id = safeId(backendId);
  return `e=$(cat "$HOME/.cumulus/${id}/engine" 2>/dev/null) && { [ "$e" != podman ] || [ "$(id -u)" = 0 ] || export XDG_RUNTIME_DIR="\${XDG_RUNTIME_DIR:-$HOME/.cumulus/run}"; "$e" rm --force cumulus-${id} >/dev/null 2>&1; }; true
`;
};

/**
 * Clusters on machines the workspace already has, reached over SSH as the account given at
 * registration with the host key pinned. Each instance is the same agent a cloud VM boots
 * (aws/user-data.ts: fetched from the control plane with the cluster's token), started detached
 * in a working directory of its own (`~/.cumulus/<backend id>`), placed on the host it fills best
 * by the cores and memory it asks. Its processes are found by the backend id in their environment.
 */
export function createSshBackend(options: SshBackendOptions): Backend {
  const { hosts } = options;
  const builder = createSshBuilder(hosts);
  /** Since when each host has been unreachable (this process's view). */
  const unreachableSince = new Map<number, number>();
  let turns: Promise<unknown> = Promise.resolve();
  /** Placements take turns: each sees those before it (the starts then go side by side). */
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turns.then(work, work);
    turns = next.catch(() => undefined);
    return next;
  };

  async function running(host: SshHost): Promise<Set<string>> {
    const { stdout } = await runOn(host, LIST);
    unreachableSince.delete(host.id);
    return new Set(stdout.split('\n').map((l) => l.slice('CUMULUS_BACKEND_ID='.length)));
  }

  /** Whether a host unreachable now has been for longer than the grace: its instances are lost. */
  function lost(hostId: number): boolean {
    const since = unreachableSince.get(hostId) ?? Date.now();
    unreachableSince.set(hostId, since);
    return Date.now() - since >= options.lostAfterMs;
  }

  /** Hosts whose pool is filled again shortly (after a take). */
  const refills = new Map<number, NodeJS.Timeout>();
  function refillSoon(host: SshHost) {
    if (!options.warm || refills.has(host.id)) return;
    const timer = setTimeout(() => {
      refills.delete(host.id);
      keepWarm(host, options.warm!).catch(() => undefined);
    }, options.refillDelayMs ?? 1500);
    timer.unref();
    refills.set(host.id, timer);
  }

  /** Starts the instance's agent: in one of the host's warm processes where one is ready, else cold. Answers the warm id it took. */
  async function start(
    host: SshHost,
    spec: LaunchSpec,
    gpuDevices: readonly number[],
  ): Promise<string | null> {
    const cuda = cudaVisibleDevices(host.gpus, gpuDevices);
    const own = safeId(spec.backendId);
    // What the agent runs with besides the account's own environment (`~/`: the account's home).
    const env: Record<string, string> = {
      CUMULUS_WORK_DIR: '~/.cumulus',
      CUMULUS_PYTHON: host.python,
      // Dask listens on the host's own address, the one its peers and clients reach.
      CUMULUS_AGENT_HOST: host.address,
      // Instances share the host: each reports its own processes' CPU and memory.
      CUMULUS_METRICS_SCOPE: 'processes',
      // Its own GPUs alone (none: "" on a host with GPUs), so that it takes no other instance's.
      ...(cuda !== undefined && { CUDA_VISIBLE_DEVICES: cuda }),
    };
    const cold = detachedCommand(own, {
      ...Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, v.startsWith('~/') ? `"$HOME/${v.slice(2)}"` : quote(v)]),
      ),
      // The agent is fetched once per host and server version, then copied (user-data.ts).
      CUMULUS_AGENT_CACHE: await agentCacheOf(),
    });
    const script = userDataScript({ ...spec, sshPublicKey: undefined });
    // A container's agent runs in its image: no warm process can be it.
    const warm = options.warm && options.warm.size > 0 && !spec.container;
    const assignment = {
      cwd: `~/.cumulus/${own}`,
      inherit: true,
      env: {
        ...instanceVars(spec),
        ...env,
        PYTHONUNBUFFERED: '1',
        CUMULUS_BATCH_ROOT: `~/.cumulus/${own}/batch`,
      },
    };
    const result = warm
      ? await runOn(host, takeScript(own, await poolOf(host), cold), {
          stdin: `${JSON.stringify(assignment)}\n${script}`,
        })
      : await runOn(host, cold, { stdin: script });
    const failed = startFailure(result);
    if (failed !== null) throw final(`Could not start the agent on ${host.name}: ${failed}`);
    const took = tookWarm(result.stdout);
    if (took) refillSoon(host);
    return took;
  }

  return {
    type: 'ssh',
    capabilities: {
      ssh: false,
      dashboards: false,
      // Not by instance type: GPUs are asked by count and placed on the hosts (gpusOffered).
      gpus: false,
      spot: false,
      firewall: false,
      // Pip environments, built on one of the workspace's hosts and unpacked on each (ssh-builder.ts);
      // container images, checked on one host and pulled by each (aws/container-script.ts).
      builds: ['pip', 'container'],
      // `worker_vm_types` / `scheduler_vm_types` name host labels (placement.ts `withLabels`).
      typesAreLabels: true,
    },
    builder,
    describeSelf: () => ({ backend: 'ssh', options: { provider_name: 'ssh' } }),
    // GPUs are asked by count (a cluster's worker_gpu): as many as one healthy host has.
    async gpusOffered(workspaceId) {
      const healthy = await hosts.healthyHosts(workspaceId);
      return {
        gpus: Math.max(0, ...healthy.map((h) => h.gpus)),
        refusal: (asked) =>
          `No SSH host of this workspace has ${asked} GPU${asked === 1 ? '' : 's'}: ${gpuCounts(healthy)}. Ask for fewer GPUs per instance, or register a host with more (its gpus).`,
      };
    },
    // Instances are sized by what they ask (threads, memory limit), placed on the hosts at launch.
    machineFor: (): MachineShape => ({
      instanceType: 'ssh',
      cores: 1,
      memoryMib: DEFAULT_MIB,
      gpus: 0,
      arch: 'x86_64',
    }),

    async launch(spec): Promise<BackendData> {
      // Placed in turn (each sees the placements before it); started side by side: a cluster's
      // scheduler and workers are started over their own connections at once.
      const placed = await inTurn(async (): Promise<Placed> => {
        const asked = {
          cores: spec.size?.cores ?? 1,
          memoryMib: spec.size?.memoryMib ?? DEFAULT_MIB,
          gpus: spec.gpus ?? 0,
        };
        const already = await hosts.placementOf(spec.backendId);
        const healthy = await hosts.healthyHosts(spec.workspaceId);
        let host = already ? await hosts.host(spec.workspaceId, already.hostId) : null;
        let gpuDevices = already?.gpuDevices ?? [];
        if (host) {
          // Launched before (a crash between placing and recording): adopt what runs, or start it there.
          const live = await running(host).catch((err: unknown) => {
            throw backendErrorOf(err);
          });
          if (live.has(spec.backendId))
            return {
              adopted: {
                hostId: host.id,
                workspaceId: spec.workspaceId,
                host: host.name,
                address: host.address,
                adopted: true,
              },
            };
        } else {
          const labelled = withLabels(healthy, spec.instanceTypes);
          const placed = await hosts.placeOnOneOf(
            labelled.map((h) => h.id),
            (used) => {
              const rooms = labelled.map((h) => {
                const on = used.filter((p) => p.hostId === h.id);
                return {
                  ...h,
                  usedCores: on.reduce((n, p) => n + p.cores, 0),
                  usedMemoryMib: on.reduce((n, p) => n + p.memoryMib, 0),
                  usedGpuDevices: on.flatMap((p) => p.gpuDevices),
                };
              });
              const room = placeOn(rooms, asked);
              return {
                backendId: spec.backendId,
                hostId: room.id,
                clusterId: spec.clusterId,
                ...asked,
                gpuDevices: gpuDevicesFor(room.gpus, room.usedGpuDevices, asked.gpus),
              };
            },
          );
          host = labelled.find((h) => h.id === placed.hostId)!;
          gpuDevices = placed.gpuDevices;
        }
        return { host, gpuDevices };
      });
      if ('adopted' in placed) return placed.adopted;
      const { host, gpuDevices } = placed;
      let warmId: string | null;
      try {
        warmId = await start(host, spec, gpuDevices);
      } catch (err) {
        await hosts.unplace(spec.backendId);
        throw err instanceof SshFailure ? backendErrorOf(err) : err;
      }
      return {
        hostId: host.id,
        workspaceId: spec.workspaceId,
        host: host.name,
        address: host.address,
        ...(gpuDevices.length > 0 && { gpuDevices }),
        // The warm process it took: its processes carry that id (the host records it too).
        ...(warmId && { warmId }),
      };
    },

    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const answer = new Map<string, Observation>();
      const byHost = new Map<number, { where: Where; refs: InstanceRef[] }>();
      for (const ref of refs) {
        const where = whereOf(ref);
        if (!where) {
          answer.set(ref.backendId, { state: 'gone', reason: 'It was never placed on an SSH host' });
          continue;
        }
        const group = byHost.get(where.hostId) ?? { where, refs: [] };
        group.refs.push(ref);
        byHost.set(where.hostId, group);
      }
      await Promise.all(
        [...byHost.values()].map(async ({ where, refs: on }) => {
          const host = await hosts.host(where.workspaceId, where.hostId);
          const say = (ref: InstanceRef, o: Observation) => answer.set(ref.backendId, o);
          if (!host) {
            for (const ref of on)
              say(ref, { state: 'gone', reason: 'Its SSH host was removed from the workspace' });
            return;
          }
          let live: Set<string>;
          try {
            live = await running(host);
          } catch (err) {
            const why = err instanceof Error ? err.message : String(err);
            const gone = lost(host.id);
            for (const ref of on)
              say(
                ref,
                gone
                  ? { state: 'gone', reason: `Lost with its host: ${why}` }
                  : { state: 'running', privateIp: host.address },
              );
            return;
          }
          const failed = await whyFailed(
            (script) => runOn(host, script),
            on.filter((ref) => !live.has(ref.backendId)).map((ref) => ref.backendId),
          );
          for (const ref of on)
            say(
              ref,
              live.has(ref.backendId)
                ? { state: 'running', privateIp: host.address }
                : {
                    state: 'gone',
                    reason:
                      failed.get(ref.backendId) ?? `Its processes are no longer running on ${host.name}`,
                  },
            );
        }),
      );
      for (const [backendId, o] of answer) if (o.state === 'gone') await hosts.unplace(backendId);
      return answer;
    },

    /** Whether one of the instance's own processes listens on the port (its pid from `ss`, its backend id from its environment). */
    async listensOn(instance: InstanceRef, address: { host: string; port: number }): Promise<boolean> {
      const where = whereOf(instance);
      const host = where && (await hosts.host(where.workspaceId, where.hostId));
      if (!host || address.host !== host.address || !Number.isInteger(address.port)) return false;
      const id = safeId(instance.backendId);
      const script = `${startedAs(id)}
for p in $(ss -ltnpH 'sport = :${address.port}' 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2); do grep -qzx -e 'CUMULUS_BACKEND_ID=${id}' -e "CUMULUS_BACKEND_ID=$w" /proc/$p/environ 2>/dev/null && echo yes && break; done; true`;
      return (await runOn(host, script)).stdout.includes('yes');
    },

    async stop(instance: InstanceRef): Promise<void> {
      const where = whereOf(instance);
      const host = where && (await hosts.host(where.workspaceId, where.hostId));
      if (!host) return hosts.unplace(instance.backendId);
      const grace = Math.max(1, Math.ceil(options.stopGraceMs / 1000));
      try {
        await runOn(
          host,
          stopScript(safeId(instance.backendId), grace) + removeContainer(instance.backendId),
          {
            timeoutMs: grace * 1000 + 15_000,
          },
        );
      } catch (err) {
        // A host gone for good takes its instances with it; until then, stopping is tried again.
        if (lost(host.id)) return hosts.unplace(instance.backendId);
        throw backendErrorOf(err);
      }
    },
  };
}
