import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { arch, availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import {
  type Backend,
  type BackendData,
  final,
  type InstanceRef,
  type LaunchSpec,
  type MachineShape,
  type Observation,
} from './backend.js';
import type { Builder } from './builder.js';
import { instanceListensOn } from './local-listening.js';
import {
  BACKEND_ID_VAR,
  findInstanceProcesses,
  type LocalProcess,
  processesChanged,
  signalGroups,
} from './local-processes.js';
import type { LocalSandbox } from './local-sandbox.js';
import type { WarmPool } from './local-warm.js';
import type { Podman } from './podman.js';

/**
 * A spawn holds the event loop while it forks (15-30 ms here, with the embedded database's memory
 * in this process): instances launched together take turns, one spawn per turn of the event loop,
 * so that requests are answered in between instead of after all of them.
 */
let turns: Promise<void> = Promise.resolve();
function spawnTurn(): Promise<void> {
  turns = turns.then(() => new Promise((r) => setImmediate(r)));
  return turns;
}

export interface LocalBackendOptions {
  /** Interpreter with `distributed` (CUMULUS_PYTHON). */
  python: string;
  /** Instance work dirs go under `<dataDir>/instances/<backend id>`. */
  dataDir: string;
  /** The environment instances start from (nothing secret). */
  baseEnv: Record<string, string>;
  stopGraceMs: number;
  /** Builds software environments on this machine (local-builder.ts). */
  builder?: Builder;
  /** Who instances run as (local-sandbox.ts). */
  sandbox: LocalSandbox;
  /** Runs instances of container environments in their image, where configured. */
  podman?: Podman;
  /** Agents waiting to become instances (local-warm.ts); absent: each instance starts a process. */
  warm?: WarmPool;
}

const POLL_MS = 100;
/** Node's names for the architectures, in the words clients use (x86_64, aarch64). */
const ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

/** The podman container an instance of a container environment runs in. */
const containerName = (backendId: string) => `cumulus-${backendId}`;

/** The identity key of a cluster's processes (local-sandbox.ts): one uid per cluster. */
const clusterKey = (clusterId: number) => `cluster-${clusterId}`;

/** The uid an instance was launched as (recorded in its backend data), where it was not the server's. */
const uidOf = (ref: InstanceRef): number | undefined =>
  typeof ref.backendData?.uid === 'number' ? ref.backendData.uid : undefined;

/** The instance in a warm process of the pool, if one is ready and takes it; else null (start one). */
async function startWarm(
  pool: WarmPool,
  spec: LaunchSpec,
  env: Record<string, string>,
  workDir: string,
  who: { uid: number; gid: number } | null,
): Promise<{ pid: number; pgid: number; warmId: string } | null> {
  const waiting = pool.take();
  if (!waiting) return null;
  try {
    const assignment = { ...(who && { uid: who.uid, gid: who.gid }), cwd: workDir, env };
    const { pid, warmId } = await pool.assign(waiting, spec.backendId, assignment);
    return { pid, pgid: pid, warmId };
  } catch {
    return null; // it is gone; the instance starts as a new process
  }
}

/**
 * Whether a process carrying the instance's backend id is its: one of its uid's (where it has one),
 * or, for an instance in a container, the `podman run` the server started (its recorded pid): until
 * the image's processes are up (seconds), that is all there is of the instance.
 */
function isInstanceProcess(ref: InstanceRef, p: LocalProcess): boolean {
  const uid = uidOf(ref);
  if (uid === undefined || p.uid === uid) return true;
  return typeof ref.backendData?.container === 'string' && p.pid === ref.backendData.pid;
}

/**
 * Every instance is a local process group: `python -m cumulus.agent`, detached in its own group,
 * with its own work dir, run as its cluster's own uid where the sandbox gives one. It survives the
 * server (clusters keep running across restarts) and is found again by its backend id (and uid)
 * in /proc, never by a pid alone.
 */
export function createLocalBackend(options: LocalBackendOptions): Backend {
  const { sandbox } = options;

  /**
   * The ids an instance's processes carry in their environment: its backend id and, where it took
   * a warm process (local-warm.ts), the id that process was started with (a process cannot change
   * what /proc shows of its environment): from its backend data, or the pool's record of the take
   * where the launch never returned (the server died during it).
   */
  async function idsOf(ref: InstanceRef): Promise<string[]> {
    const recorded = ref.backendData?.warmId;
    const warmId = typeof recorded === 'string' ? recorded : await options.warm?.recorded(ref.backendId);
    return warmId ? [ref.backendId, warmId] : [ref.backendId];
  }

  /**
   * An instance's processes: those carrying its ids and, where it runs as a uid of its own, that
   * uid (a process of another tenant naming itself so is not this instance's).
   */
  async function processesOf(ref: InstanceRef): Promise<LocalProcess[]> {
    const ids = await idsOf(ref);
    return (await findInstanceProcesses()).filter(
      (p) => ids.includes(p.backendId) && isInstanceProcess(ref, p),
    );
  }

  /**
   * `podman run` of an instance of a container environment: the agent (its code mounted
   * read-only) and Dask run in the image as the cluster's uid, with no capabilities and no way to
   * gain privileges, on the host's network (as other local instances: the server and the client
   * reach them at this machine's addresses), the instance's work dir its only writable mount. The
   * variables are passed by name only (`-e NAME`): podman reads their values from its own
   * environment, so no token appears on a command line.
   */
  async function containerCommand(
    spec: LaunchSpec,
    env: Record<string, string>,
    workDir: string,
    who: { uid: number; gid: number } | null,
  ): Promise<string[]> {
    const podman = options.podman;
    if (!podman) throw final('Container environments are off on this server (CUMULUS_PODMAN=off)');
    const { image, useEntrypoint } = spec.container!;
    return [
      podman.program,
      'run',
      '--rm',
      '--init',
      '--name',
      containerName(spec.backendId),
      ...(await podman.runFlags(image)),
      '--network',
      'host',
      ...(who ? ['--user', `${who.uid}:${who.gid}`] : []),
      '--volume',
      `${sandbox.pythonPath}:${sandbox.pythonPath}:ro`,
      '--volume',
      `${workDir}:${workDir}`,
      '--workdir',
      workDir,
      ...Object.keys(env)
        .filter((name) => name !== 'PATH')
        .flatMap((name) => ['--env', name]),
      ...(useEntrypoint ? [] : ['--entrypoint', '[]']),
      image,
      'python3',
      '-m',
      'cumulus.agent',
    ];
  }

  return {
    type: 'in_process',
    // Local processes run no SSH server and, without bokeh, no dashboard.
    capabilities: {
      ssh: false,
      dashboards: false,
      gpus: false,
      spot: false,
      firewall: false,
      builds: options.builder ? options.builder.kinds : [],
    },
    ...(options.builder && { builder: options.builder }),

    describeSelf() {
      return { backend: 'in_process', options: { provider_name: 'local', region_name: 'local' } };
    },

    // Every local instance shares this machine, whatever type was asked for.
    machineFor(): MachineShape {
      return {
        instanceType: 'local',
        cores: availableParallelism(),
        memoryMib: Math.floor(totalmem() / 2 ** 20),
        gpus: 0,
        arch: ARCH[arch()] ?? arch(),
      };
    },

    tenancy: () => sandbox.tenancy(),

    async launch(spec: LaunchSpec): Promise<BackendData> {
      const who = await sandbox.identity(clusterKey(spec.clusterId));
      const uid = who ? { uid: who.uid } : {};
      // A launch retried (the server died during the first) finds what the first started.
      const warmId = await options.warm?.recorded(spec.backendId);
      const known = { ...uid, ...(warmId && { warmId }) };
      const existing = await processesOf({ backendId: spec.backendId, backendData: known });
      const workDir = path.join(options.dataDir, 'instances', spec.backendId);
      const leader = existing.find((p) => p.pid === p.pgid) ?? existing[0];
      if (leader) return { pid: leader.pid, pgid: leader.pgid, workDir, ...known, adopted: true };
      await sandbox.privateDir(workDir, who);
      const tmp = path.join(workDir, 'tmp');
      await sandbox.privateDir(tmp, who);
      const env: Record<string, string> = {
        ...options.baseEnv,
        // Its own home and temporary files: nothing it writes lands where another cluster looks.
        ...(who && { HOME: workDir, TMPDIR: tmp, USER: who.name, LOGNAME: who.name }),
        PYTHONPATH: sandbox.pythonPath,
        PYTHONUNBUFFERED: '1',
        CUMULUS_SERVER: spec.serverUrl,
        CUMULUS_CLUSTER_TOKEN: spec.clusterToken,
        CUMULUS_INSTANCE_ID: String(spec.instanceId),
        CUMULUS_AGENT_UNREACHABLE_SECONDS: String(spec.unreachableTimeoutMs / 1000),
        // Instances share this machine: batch tasks run in the instance's own directory,
        // not in the job's workdir (which every instance would share).
        CUMULUS_BATCH_ROOT: path.join(workDir, 'batch'),
        // ...and their metrics: CPU, memory and disk of the instance's own processes, not the host's.
        CUMULUS_METRICS_SCOPE: 'processes',
        [BACKEND_ID_VAR]: spec.backendId,
      };
      if (options.warm && !spec.container) {
        const taken = await startWarm(options.warm, spec, env, workDir, who);
        if (taken) return { ...taken, workDir, ...uid };
      }
      await spawnTurn();
      // The agent's own output, for when it fails before it can ship logs.
      const out = openSync(path.join(workDir, 'agent.log'), 'a', 0o600);
      try {
        const [program, ...args] = spec.container
          ? await containerCommand(spec, env, workDir, who)
          : [options.python, '-m', 'cumulus.agent'];
        const child = spawn(program!, args, {
          cwd: workDir,
          detached: true,
          stdio: ['ignore', out, out],
          // In a container, podman runs as the server and the container as the cluster's uid.
          ...(who && !spec.container && { uid: who.uid, gid: who.gid }),
          env: spec.container ? { ...process.env, ...env } : env,
        });
        // Started: a scan begun before it does not answer anyone after.
        processesChanged();
        const pid = await new Promise<number>((resolve, reject) => {
          child.once('error', (err) => reject(final(`Cannot start ${options.python}: ${err.message}`, err)));
          child.once('spawn', () => resolve(child.pid!));
        });
        child.unref();
        return {
          pid,
          pgid: pid,
          workDir,
          ...uid,
          ...(spec.container && { container: containerName(spec.backendId) }),
        };
      } finally {
        closeSync(out);
      }
    },

    async stop(instance: InstanceRef): Promise<void> {
      let processes = await processesOf(instance);
      if (processes.length === 0) return void (await options.warm?.forget(instance.backendId));
      signalGroups(processes, 'SIGTERM');
      const deadline = Date.now() + options.stopGraceMs;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        processes = await processesOf(instance);
        if (processes.length === 0) return void (await options.warm?.forget(instance.backendId));
      }
      signalGroups(processes, 'SIGKILL');
      for (let i = 0; i < 50; i++) {
        if ((await processesOf(instance)).length === 0) {
          if (typeof instance.backendData?.container === 'string')
            await options.podman?.remove(instance.backendData.container);
          return;
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      throw new Error(`instance ${instance.backendId} survived SIGKILL`);
    },

    /**
     * Once every instance of a cluster is gone: whatever its uid still runs (a daemon its code
     * left) ends, its instances' work dirs become root's again, and the uid is given back.
     */
    async releaseCluster({ clusterId }): Promise<void> {
      const who = sandbox.held(clusterKey(clusterId));
      if (!who) return;
      await sandbox.release(clusterKey(clusterId));
      const root = path.join(options.dataDir, 'instances');
      for (const entry of await readdir(root).catch(() => [] as string[])) {
        const dir = path.join(root, entry);
        if ((await stat(dir).catch(() => null))?.uid === who.uid) await sandbox.takeBack(dir);
      }
    },

    listensOn: async (instance, address) => instanceListensOn(await idsOf(instance), address),

    // One scan of /proc answers every instance asked about.
    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const found = await findInstanceProcesses();
      const ids = await Promise.all(refs.map(idsOf));
      const running = new Set(
        refs
          .filter((r, i) => found.some((p) => ids[i]!.includes(p.backendId) && isInstanceProcess(r, p)))
          .map((r) => r.backendId),
      );
      return new Map(
        refs.map((r) => [
          r.backendId,
          running.has(r.backendId)
            ? { state: 'running' }
            : { state: 'gone', reason: 'Its processes are no longer running on this machine' },
        ]),
      );
    },
  };
}
