import { buildUserDataScript } from '../aws/user-data.js';
import type { Builder } from '../builder.js';
import { buildContainer } from '../container-builder.js';
import { final, retryable } from '../errors.js';
import { createRemoteBuilder, UNPACKED_IN_HOME } from '../remote-builder.js';
import { RemotePodman } from '../remote-podman.js';
import { backendErrorOf, runOn, type SshTarget } from './connection.js';
import { quote, startDetached, stopScript } from './detached.js';

/** A host as the builder reaches it: with the interpreter that has `distributed` there. */
export interface SshBuildHost extends SshTarget {
  python: string;
}

/** What the builder needs of the host registry: the workspace's hosts whose last check passed. */
export interface SshBuildHosts {
  healthyHosts(workspaceId: number): Promise<SshBuildHost[]>;
}

/** What a build's processes on a host are found by (and its directory, `~/.cumulus/build-<id>`, named). */
const buildId = (id: number) => `build-${id}`;

/**
 * The `ssh` backend's builder: vm_aws's remote build (remote-builder.ts), with one of the
 * workspace's healthy hosts as the build machine. It starts the build agent there over SSH as the
 * host account (`python -m cumulus.agent.build` with the host's registered Python, detached in
 * `~/.cumulus/build-<id>`), which fetches the spec and the uploaded wheels from the control plane
 * with the build's token, installs with the host's own pip configuration and the spec's source
 * lines, and uploads the environment's archive. The archive is kept here by content hash; each
 * instance's agent unpacks it once per host under `~/.cumulus/environments/<hash>` and runs Dask
 * from it, so every later cluster (and every environment with the same packages) on that host
 * reuses the copy. When the build ends its processes and directory on the host are removed.
 *
 * A container environment is checked as the local backend checks one (container-builder.ts), on one
 * of the workspace's healthy hosts over SSH (remote-podman.ts): the image pulled there with the
 * workspace's registry login, its Python run to see that it has Dask, its architecture the host's.
 * Each host pulls the image again when an instance starts there (aws/container-script.ts).
 */
export function createSshBuilder(hosts: SshBuildHosts): Builder {
  const pip = createPipBuilder(hosts);
  return {
    ...pip,
    kinds: ['pip', 'container'],
    async build(request, io) {
      if (request.kind !== 'container') return pip.build(request, io);
      const host = await healthyHost(hosts, request.workspaceId ?? 0);
      io.log(`Checking the image on ${host.name}`);
      const machine = await runOn(host, 'uname -m').catch((err: unknown) => {
        throw backendErrorOf(err);
      });
      const podman = new RemotePodman(host.name, (command, options) => runOn(host, command, options));
      return buildContainer(podman, request, machine.stdout.trim(), io);
    },
  };
}

async function healthyHost(hosts: SshBuildHosts, workspaceId: number): Promise<SshBuildHost> {
  const [host] = await hosts.healthyHosts(workspaceId);
  if (!host)
    throw retryable(
      'This workspace has no healthy SSH host to build on: the build starts once one passes its check.',
    );
  return host;
}

function createPipBuilder(hosts: SshBuildHosts): Builder {
  /** The host each build runs on (this process's view; after a restart, every healthy host is looked at). */
  const buildHosts = new Map<number, SshBuildHost>();
  return createRemoteBuilder({
    backend: 'ssh',
    ...UNPACKED_IN_HOME,
    async launch(job, log) {
      const host = await healthyHost(hosts, job.workspaceId);
      buildHosts.set(job.buildId, host);
      log(`Building on ${host.name} with ${host.python}`);
      const script = buildUserDataScript({
        buildId: job.buildId,
        backendId: buildId(job.buildId),
        serverUrl: job.serverUrl,
        token: job.token,
      });
      const failed = await startDetached(host, buildId(job.buildId), script, {
        CUMULUS_WORK_DIR: '$HOME/.cumulus',
        CUMULUS_PYTHON: quote(host.python),
      }).catch((err: unknown) => {
        throw backendErrorOf(err);
      });
      if (failed !== null) throw final(`Could not start the build on ${host.name}: ${failed}`);
    },
    // Its processes gone from the host before it reported: the end of what it wrote says why.
    async ended(job) {
      const host = buildHosts.get(job.buildId);
      if (!host) return null;
      const id = buildId(job.buildId);
      const look = `if grep -qzx 'CUMULUS_BACKEND_ID=${id}' /proc/[0-9]*/environ 2>/dev/null; then echo running; else tail -q -n 5 "$HOME/.cumulus/${id}/launch.log" "$HOME/.cumulus/${id}/build.log" 2>/dev/null; fi; true`;
      const result = await runOn(host, look).catch(() => null);
      if (!result || result.stdout.trim() === 'running') return null;
      const tail = result.stdout.trim().split('\n').slice(-5).join(' | ');
      return `its processes on ${host.name} have ended${tail ? `: ${tail.slice(0, 1000)}` : ''}`;
    },
    async stop(job) {
      const known = buildHosts.get(job.buildId);
      buildHosts.delete(job.buildId);
      const on = known ? [known] : await hosts.healthyHosts(job.workspaceId);
      const id = buildId(job.buildId);
      await Promise.all(
        on.map((host) =>
          runOn(host, `${stopScript(id, 1)}\nrm -rf "$HOME/.cumulus/${id}"`, { timeoutMs: 20_000 }),
        ),
      );
    },
  });
}
