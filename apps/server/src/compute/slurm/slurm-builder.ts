import { buildUserDataScript } from '../aws/user-data.js';
import type { Builder } from '../builder.js';
import { buildContainer } from '../container-builder.js';
import { final } from '../errors.js';
import { createRemoteBuilder, UNPACKED_IN_HOME } from '../remote-builder.js';
import { RemotePodman } from '../remote-podman.js';
import { type CommandLogin, loginError, quote, runOnLogin, type SlurmLogin } from './login.js';
import { sbatchFlags } from './sbatch.js';

/** A workspace's Slurm cluster as jobs are submitted to it (slurm-backend.ts's SlurmCluster is one). */
export interface SlurmBuildCluster {
  name: string;
  login: SlurmLogin;
  partition: string | null;
  account: string | null;
  qos: string | null;
  timeLimitMinutes: number | null;
  nodeCores: number;
  nodeMemoryMib: number;
  python: string;
}

/**
 * The login a build's job is submitted on: builds are sbatch jobs run on a login node (this machine
 * or over SSH); a Slurm cluster connected through slurmrestd has none to build on yet.
 */
function commandLogin(cluster: SlurmBuildCluster): CommandLogin {
  if (cluster.login.mode === 'rest')
    throw final(
      `Software environments are not built on the Slurm cluster ${cluster.name} yet: it is connected through slurmrestd, and builds are submitted on a login node (connect it over SSH, or from this server's machine, to build them).`,
    );
  return cluster.login;
}

/** A build's Slurm job (and its directory on the shared home, `~/.cumulus/build-<id>`). */
const buildJob = (id: number) => `cumulus-build-${id}`;
const buildDir = (id: number) => `"$HOME/.cumulus/build-${id}"`;

/**
 * The `slurm` backend's builder: vm_aws's remote build (remote-builder.ts) as a Slurm job of one
 * core, submitted on the login node like an instance's: it runs the build agent with the nodes'
 * Python, which fetches the spec and uploaded wheels with the build's token and uploads the
 * environment's archive; each instance's agent unpacks it once under `~/.cumulus/environments/`
 * (the shared home). The job is cancelled and its directory removed when the build ends.
 *
 * A container environment is checked on the login node as the local backend checks one
 * (container-builder.ts over remote-podman.ts): pulled there with the workspace's registry login,
 * its Python run to see that it has Dask, its architecture the login node's. Each job pulls the
 * image again on its node (aws/container-script.ts).
 */
export function createSlurmBuilder(
  clusterOf: (workspaceId: number) => Promise<SlurmBuildCluster | null>,
): Builder {
  const found = async (workspaceId: number) => {
    const cluster = await clusterOf(workspaceId);
    if (!cluster) throw final('This workspace has no Slurm cluster connected.');
    return cluster;
  };
  const pip = createPipBuilder(clusterOf, found);
  return {
    ...pip,
    kinds: ['pip', 'container'],
    async build(request, io) {
      if (request.kind !== 'container') return pip.build(request, io);
      const cluster = await found(request.workspaceId ?? 0);
      const login = commandLogin(cluster);
      const run = (command: string, options: { stdin?: string; timeoutMs: number }) =>
        runOnLogin(login, command, options).catch((err: unknown) => {
          throw loginError(err);
        });
      io.log(`Checking the image on ${login.name}, the login node of the Slurm cluster ${cluster.name}`);
      const machine = await run('uname -m', { timeoutMs: 30_000 });
      return buildContainer(new RemotePodman(login.name, run), request, machine.stdout.trim(), io);
    },
  };
}

function createPipBuilder(
  clusterOf: (workspaceId: number) => Promise<SlurmBuildCluster | null>,
  found: (workspaceId: number) => Promise<SlurmBuildCluster>,
): Builder {
  return createRemoteBuilder({
    backend: 'slurm',
    ...UNPACKED_IN_HOME,
    async launch(job, log) {
      const cluster = await found(job.workspaceId);
      const script = buildUserDataScript({
        buildId: job.buildId,
        backendId: `build-${job.buildId}`,
        serverUrl: job.serverUrl,
        token: job.token,
      }).replace(
        /^#!\/bin\/bash\n/,
        `#!/bin/bash
# Slurm job of Cumulus: software build ${job.buildId}.
export CUMULUS_WORK_DIR="$HOME/.cumulus" CUMULUS_PYTHON=${quote(cluster.python)}
`,
      );
      const flags = sbatchFlags({
        name: buildJob(job.buildId),
        cores: 1,
        memoryMib: Math.floor(cluster.nodeMemoryMib / cluster.nodeCores),
        gpus: 0,
        partition: cluster.partition,
        account: cluster.account,
        qos: cluster.qos,
        timeLimitMinutes: cluster.timeLimitMinutes,
      });
      const command = `set -e; mkdir -p ${buildDir(job.buildId)}; cd ${buildDir(job.buildId)}; echo "job $(sbatch ${flags} | cut -d';' -f1)"`;
      const result = await runOnLogin(commandLogin(cluster), command, { stdin: script }).catch(
        (err: unknown) => {
          throw loginError(err);
        },
      );
      const id = /^job (\d+)/m.exec(result.stdout)?.[1];
      if (result.code !== 0 || !id)
        throw final(
          `Slurm refused the build job on ${cluster.login.name}: ${(result.stderr || result.stdout).trim().slice(0, 300)}`,
        );
      log(`Building in Slurm job ${id} on the Slurm cluster ${cluster.name} with ${cluster.python}`);
    },
    // Its job gone from the queue before it reported: the end of its output says why.
    async ended(job) {
      const cluster = await clusterOf(job.workspaceId);
      if (!cluster) return 'the Slurm cluster was disconnected from the workspace';
      const dir = buildDir(job.buildId);
      // squeue failing (Slurm busy) is no end: only a queue that no longer lists the job is.
      const look = `if ! out=$(squeue -h -n ${quote(buildJob(job.buildId))} -o %i) || [ -n "$out" ]; then echo running; else tail -q -n 5 ${dir}/slurm-*.out ${dir}/build.log 2>/dev/null; fi; true`;
      if (cluster.login.mode === 'rest')
        return 'the Slurm cluster is connected through slurmrestd, where builds do not run';
      const result = await runOnLogin(cluster.login, look).catch(() => null);
      if (!result || result.stdout.trim() === 'running') return null;
      const tail = result.stdout.trim().split('\n').slice(-5).join(' | ');
      return `its Slurm job has ended${tail ? `: ${tail.slice(0, 1000)}` : ''}`;
    },
    async stop(job) {
      const cluster = await clusterOf(job.workspaceId);
      if (!cluster || cluster.login.mode === 'rest') return;
      await runOnLogin(
        cluster.login,
        `scancel -n ${quote(buildJob(job.buildId))}; rm -rf ${buildDir(job.buildId)}`,
      );
    },
  });
}
