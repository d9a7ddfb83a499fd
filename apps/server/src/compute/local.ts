import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { arch, availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import { PYTHON_DIR } from '../paths.js';
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
import { BACKEND_ID_VAR, findInstanceProcesses, processesChanged, signalGroups } from './local-processes.js';

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
}

const POLL_MS = 100;
/** Node's names for the architectures, in the words clients use (api.md: x86_64, aarch64). */
const ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

/**
 * Every instance is a local process group: `python -m cumulus.agent`, detached in its own group,
 * with its own work dir. It survives the server (clusters keep running across restarts) and is
 * found again by its backend id in /proc, never by a pid alone.
 */
export function createLocalBackend(options: LocalBackendOptions): Backend {
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

    async launch(spec: LaunchSpec): Promise<BackendData> {
      const existing = await findInstanceProcesses(spec.backendId);
      const workDir = path.join(options.dataDir, 'instances', spec.backendId);
      const leader = existing.find((p) => p.pid === p.pgid) ?? existing[0];
      if (leader) return { pid: leader.pid, pgid: leader.pgid, workDir, adopted: true };
      mkdirSync(workDir, { recursive: true, mode: 0o700 });
      await spawnTurn();
      // The agent's own output, for when it fails before it can ship logs.
      const out = openSync(path.join(workDir, 'agent.log'), 'a', 0o600);
      try {
        const child = spawn(options.python, ['-m', 'cumulus.agent'], {
          cwd: workDir,
          detached: true,
          stdio: ['ignore', out, out],
          env: {
            ...options.baseEnv,
            PYTHONPATH: PYTHON_DIR,
            PYTHONUNBUFFERED: '1',
            CUMULUS_SERVER: spec.serverUrl,
            CUMULUS_CLUSTER_TOKEN: spec.clusterToken,
            CUMULUS_INSTANCE_ID: String(spec.instanceId),
            CUMULUS_AGENT_UNREACHABLE_SECONDS: String(spec.unreachableTimeoutMs / 1000),
            // Instances share this machine: batch tasks run in the instance's own directory,
            // not in the job's workdir (which every instance would share).
            CUMULUS_BATCH_ROOT: path.join(workDir, 'batch'),
            [BACKEND_ID_VAR]: spec.backendId,
          },
        });
        // Started: a scan begun before it does not answer anyone after.
        processesChanged();
        const pid = await new Promise<number>((resolve, reject) => {
          child.once('error', (err) => reject(final(`Cannot start ${options.python}: ${err.message}`, err)));
          child.once('spawn', () => resolve(child.pid!));
        });
        child.unref();
        return { pid, pgid: pid, workDir };
      } finally {
        closeSync(out);
      }
    },

    async stop(instance: InstanceRef): Promise<void> {
      let processes = await findInstanceProcesses(instance.backendId);
      if (processes.length === 0) return;
      signalGroups(processes, 'SIGTERM');
      const deadline = Date.now() + options.stopGraceMs;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        processes = await findInstanceProcesses(instance.backendId);
        if (processes.length === 0) return;
      }
      signalGroups(processes, 'SIGKILL');
      for (let i = 0; i < 50; i++) {
        if ((await findInstanceProcesses(instance.backendId)).length === 0) return;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      throw new Error(`instance ${instance.backendId} survived SIGKILL`);
    },

    listensOn: (instance, address) => instanceListensOn(instance.backendId, address),

    // One scan of /proc answers every instance asked about.
    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const running = new Set((await findInstanceProcesses()).map((p) => p.backendId));
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
