import { createHash } from 'node:crypto';
import { userDataScript } from '../aws/user-data.js';
import {
  type Backend,
  type BackendData,
  BackendError,
  final,
  type InstanceRef,
  type LaunchSpec,
  type MachineShape,
  type Observation,
} from '../backend.js';
import { whyFailed } from '../ssh/detached.js';
import { type CommandLogin, loginError, quote, runOnLogin, type SlurmLogin } from './login.js';
import { type RestJobAsk, restCancel, restJobs, restSubmit } from './rest.js';
import { sbatchFlags } from './sbatch.js';
import { createSlurmBuilder } from './slurm-builder.js';

/** A workspace's Slurm cluster, its login node's key unsealed: where and how its jobs are submitted. */
export interface SlurmCluster {
  id: number;
  workspaceId: number;
  name: string;
  login: SlurmLogin;
  partition: string | null;
  account: string | null;
  qos: string | null;
  timeLimitMinutes: number | null;
  /** What one node offers: an instance asks at most this. */
  nodeCores: number;
  nodeMemoryMib: number;
  nodeGpus: number;
  /** The interpreter with `distributed` on the compute nodes. */
  python: string;
}

/** What the backend needs of the registry (domains/cloud/slurm-clusters). */
export interface SlurmClustersPort {
  /** The workspace's Slurm cluster, null when it has none. */
  clusterOf(workspaceId: number): Promise<SlurmCluster | null>;
}

/** Where an instance went (its backend data). */
interface Where {
  workspaceId: number;
  jobName: string;
  jobId: string | null;
}

const whereOf = (ref: InstanceRef): Where | null => {
  const d = ref.backendData;
  return typeof d?.workspaceId === 'number' && typeof d.jobName === 'string'
    ? { workspaceId: d.workspaceId, jobName: d.jobName, jobId: typeof d.jobId === 'string' ? d.jobId : null }
    : null;
};

/** Backend ids are ours (letters, digits, dashes): checked before they go into a command. */
const safeId = (id: string) => {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw final(`Backend id ${id} cannot name a Slurm job.`);
  return id;
};

/** The job of an instance: its name carries the cluster (`cumulus-c<cluster>-<backend id>`). */
export const jobNameOf = (clusterId: number, backendId: string) =>
  `cumulus-c${clusterId}-${safeId(backendId)}`;

/** Slurm's job states (squeue `%T`, sacct `State`), as an instance stands. */
const PENDING = new Set(['PENDING', 'REQUEUED', 'REQUEUE_FED', 'REQUEUE_HOLD', 'RESV_DEL_HOLD', 'SUSPENDED']);
const RUNNING = new Set(['RUNNING', 'CONFIGURING', 'RESIZING']);
const STOPPING = new Set(['COMPLETING', 'STOPPED', 'SIGNALING', 'STAGE_OUT']);

interface JobLine {
  name: string;
  id: string;
  state: string;
  reason: string;
}

const parseJobs = (stdout: string): JobLine[] =>
  stdout
    .split('\n')
    .map((line) => line.trim().split('|'))
    .filter((f) => f.length >= 4 && /^\d/.test(f[1]!))
    // sacct says `CANCELLED by 0`: the state is its first word.
    .map(([name, id, state, reason]) => ({
      name: name!,
      id: id!,
      state: state!.split(' ')[0]!,
      reason: reason!,
    }));

/** How Slurm ended a job, in its own words: `Slurm ended job 12: TIMEOUT` (its reason, where it gave one). */
const endedReason = (job: JobLine) =>
  `Slurm ended job ${job.id}: ${job.state}${job.reason && job.reason !== 'None' ? ` (${job.reason})` : ''}`;

/** What an instance is as its job stands in Slurm. */
export function observe(job: JobLine | undefined, jobId: string | null): Observation {
  if (!job)
    return {
      state: 'gone',
      reason: jobId ? `Slurm no longer knows job ${jobId}` : 'It was never submitted to Slurm',
    };
  if (PENDING.has(job.state))
    // Slurm says `None` until its scheduler has looked at the job (every few seconds): no reason yet.
    return {
      state: 'pending',
      reason:
        job.reason && job.reason !== 'None'
          ? `pending in the Slurm queue (${job.reason})`
          : 'pending in the Slurm queue',
    };
  if (RUNNING.has(job.state)) return { state: 'running' };
  if (STOPPING.has(job.state)) return { state: 'stopping' };
  return { state: 'gone', reason: endedReason(job) };
}

/** The newest job of each name (a name resubmitted after its job ended has a newer one). */
function newestByName(jobs: JobLine[]): Map<string, JobLine> {
  const byName = new Map<string, JobLine>();
  for (const job of jobs) {
    const seen = byName.get(job.name);
    if (!seen || Number.parseInt(job.id, 10) > Number.parseInt(seen.id, 10)) byName.set(job.name, job);
  }
  return byName;
}

/**
 * What an instance's job asks: one task of its cores (a worker's `nthreads`) and memory (its
 * `memory_limit`, or a node's memory per core times its cores), its GPUs (the cluster's
 * `<role>_accelerator_count`) as Slurm's `gpu` GRES; refused where a node has too few.
 */
export function jobAsk(cluster: SlurmCluster, spec: LaunchSpec, jobName: string): RestJobAsk {
  const cores = spec.size?.cores ?? 1;
  if (cores > cluster.nodeCores)
    throw final(
      `The nodes of the Slurm cluster ${cluster.name} have ${cluster.nodeCores} cores: an instance of ${cores} cannot run there.`,
    );
  const gpus = spec.gpus ?? 0;
  const gpuRefusal = gpusRefusal(cluster, gpus);
  if (gpuRefusal) throw final(gpuRefusal);
  const perCore = Math.floor(cluster.nodeMemoryMib / cluster.nodeCores);
  return {
    name: jobName,
    cores,
    memoryMib: Math.min(cluster.nodeMemoryMib, spec.size?.memoryMib ?? perCore * cores),
    gpus,
    partition: cluster.partition,
    account: cluster.account,
    qos: cluster.qos,
    timeLimitMinutes: cluster.timeLimitMinutes,
  };
}

/** Why a worker of `gpus` GPUs cannot run on the cluster's nodes, or null where it can. */
export function gpusRefusal(cluster: Pick<SlurmCluster, 'name' | 'nodeGpus'>, gpus: number): string | null {
  if (gpus <= 0 || gpus <= cluster.nodeGpus) return null;
  return cluster.nodeGpus === 0
    ? `The nodes of the Slurm cluster ${cluster.name} have no GPUs (node_gpus): a worker of ${gpus} cannot run there.`
    : `The nodes of the Slurm cluster ${cluster.name} have ${cluster.nodeGpus} GPU${cluster.nodeGpus > 1 ? 's' : ''} (node_gpus): a worker of ${gpus} cannot run there.`;
}

/**
 * An instance submitted through slurmrestd serves its dashboard and Jupyter on ports of its own,
 * chosen from its backend id (20000-31999, below Linux's ephemeral range): slurmrestd runs no step
 * in a job, so Cumulus cannot see which process listens where; the proxy then goes to these alone.
 */
export function restPorts(backendId: string) {
  const p = 20_000 + (createHash('sha256').update(backendId).digest().readUInt32BE(0) % 6_000) * 2;
  return { scheduler: 0, dashboard: p, jupyter: p + 1 };
}

/**
 * A job submitted through slurmrestd starts in /tmp with no HOME and its output discarded (no
 * shell of the user's runs before it): it finds its home, makes its working directory there and
 * writes its output to `slurm-<job>.out` in it, as sbatch's would be.
 */
const restPrologue = (
  id: string,
) => `[ -n "\${HOME:-}" ] || HOME=$(getent passwd "$(id -un)" | cut -d: -f6); export HOME
mkdir -p "$HOME/.cumulus/${id}" && cd "$HOME/.cumulus/${id}" && exec >>"slurm-$SLURM_JOB_ID.out" 2>&1
`;

/**
 * Clusters on a workspace's Slurm cluster: each scheduler and worker is one Slurm job, submitted
 * with sbatch on the login node (this machine or over SSH), running the same agent a cloud VM boots
 * (aws/user-data.ts: fetched from the control plane with the cluster's token) in a working
 * directory of its own (`~/.cumulus/<backend id>`, on the shared home the login and compute nodes
 * see). The job's name carries the cluster and the backend id: squeue finds it by that, so a
 * launch repeated after a crash adopts the job it submitted. Stop is scancel; a job Slurm ended
 * (time limit, preemption, node failure, scancel) is reported with Slurm's state and reason.
 */
export function createSlurmBackend(options: { clusters: SlurmClustersPort }): Backend {
  const { clusters } = options;

  async function clusterOf(workspaceId: number): Promise<SlurmCluster> {
    const cluster = await clusters.clusterOf(workspaceId);
    if (!cluster) throw final('This workspace has no Slurm cluster connected.');
    return cluster;
  }

  /** Jobs by name: squeue (jobs Slurm still lists), then sacct for those it has forgotten, where accounting runs. */
  async function jobsNamed(cluster: SlurmCluster, names: string[]): Promise<Map<string, JobLine>> {
    const { login } = cluster;
    // slurmrestd lists what squeue would (no accounting here: slurmdbd's endpoints are not asked).
    if (login.mode === 'rest')
      return newestByName(
        await restJobs(login, names).catch((err: unknown) => {
          throw loginError(err);
        }),
      );
    const list = names.join(',');
    const queue = await runOnLogin(login, `squeue -h -t all -n ${quote(list)} -o '%j|%i|%T|%r'`).catch(
      (err: unknown) => {
        throw loginError(err);
      },
    );
    if (queue.code !== 0)
      throw loginError(new Error(`squeue failed on ${login.name}: ${queue.stderr.trim().slice(0, 300)}`));
    const found = newestByName(parseJobs(queue.stdout));
    const missing = names.filter((n) => !found.has(n));
    if (missing.length > 0) {
      // Without accounting (AccountingStorageType=none) sacct fails: the job is then simply gone.
      const acct = await runOnLogin(
        login,
        `sacct -n -P -X -S now-7days -o JobName,JobID,State,Reason --name=${quote(missing.join(','))} 2>/dev/null; true`,
      ).catch(() => null);
      for (const [name, job] of newestByName(parseJobs(acct?.stdout ?? ''))) found.set(name, job);
    }
    return found;
  }

  /** Submits the instance's job, or finds the one submitted before under its name (`adopted`). */
  async function submit(
    cluster: SlurmCluster,
    spec: LaunchSpec,
    jobName: string,
  ): Promise<{ jobId: string; adopted: boolean }> {
    const ask = jobAsk(cluster, spec, jobName);
    const id = safeId(spec.backendId);
    const script = userDataScript({ ...spec, sshPublicKey: undefined }).replace(
      /^#!\/bin\/bash\n/,
      `#!/bin/bash
# Slurm job of Cumulus: instance ${spec.name} of cluster ${spec.clusterId}.
${cluster.login.mode === 'rest' ? restPrologue(id) : ''}export CUMULUS_WORK_DIR="$HOME/.cumulus" CUMULUS_PYTHON=${quote(cluster.python)} CUMULUS_METRICS_SCOPE=processes CUMULUS_BACKEND_REPORTS_END=1
`,
    );
    const { login } = cluster;
    if (login.mode === 'rest')
      return restSubmit(login, ask, script).catch((err: unknown) => {
        throw err instanceof BackendError ? err : loginError(err);
      });
    const dir = `"$HOME/.cumulus/${id}"`;
    // Submitted before (a crash between submitting and recording): the job still queued or running is adopted.
    const command = `set -e; mkdir -p ${dir}; cd ${dir}
live=$(squeue -h -t PD,CF,R -n ${quote(jobName)} -o %i | head -n 1)
if [ -n "$live" ]; then echo "adopted $live"; else echo "job $(sbatch ${sbatchFlags(ask)} | cut -d';' -f1)"; fi`;
    const result = await runOnLogin(login, command, { stdin: script }).catch((err: unknown) => {
      throw loginError(err);
    });
    const [, word, jobId] = /^(job|adopted) (\d+)/m.exec(result.stdout) ?? [];
    if (result.code !== 0 || !jobId)
      throw final(
        `Slurm refused the job on ${login.name}: ${(result.stderr || result.stdout).trim().slice(0, 300)}`,
      );
    return { jobId, adopted: word === 'adopted' };
  }

  return {
    type: 'slurm',
    // Pip environments, built in a Slurm job and unpacked on the shared home (slurm-builder.ts);
    // container images, checked on the login node and pulled by each job (aws/container-script.ts).
    capabilities: {
      ssh: false,
      dashboards: false,
      gpus: false,
      spot: false,
      firewall: false,
      builds: ['pip', 'container'],
    },
    builder: createSlurmBuilder((workspaceId) => clusters.clusterOf(workspaceId)),
    describeSelf: () => ({ backend: 'slurm', options: { provider_name: 'slurm' } }),
    // Jobs submitted from this machine (login `local`) run as the server's own user: its operator's alone.
    async tenancy(workspaceId) {
      const cluster = await clusters.clusterOf(workspaceId);
      return cluster?.login.mode === 'local'
        ? {
            mode: 'operator',
            reason: `the Slurm cluster ${cluster.name} is submitted to from this server's machine (login "local"), so its jobs run as the server's user`,
          }
        : { mode: 'users' };
    },
    // Builds are submitted on a login node: none through slurmrestd (slurm-builder.ts).
    async buildsFor(workspaceId) {
      const cluster = await clusters.clusterOf(workspaceId);
      return cluster?.login.mode === 'rest' ? [] : ['pip'];
    },
    portsOf: (instance) => (instance.backendData?.login === 'rest' ? restPorts(instance.backendId) : null),
    // GPUs are asked of Slurm by count (--gres=gpu:N): as many as a node has (node_gpus).
    async gpusOffered(workspaceId) {
      const cluster = await clusters.clusterOf(workspaceId);
      const named = { name: cluster?.name ?? '', nodeGpus: cluster?.nodeGpus ?? 0 };
      return {
        gpus: named.nodeGpus,
        refusal: (asked) => gpusRefusal(named, asked) ?? `This workspace has no Slurm cluster connected.`,
      };
    },
    // Instances are sized by what they ask (threads, memory limit): each job asks Slurm for that.
    machineFor: (): MachineShape => ({
      instanceType: 'slurm',
      cores: 1,
      memoryMib: 1024,
      gpus: 0,
      arch: 'x86_64',
    }),

    async launch(spec): Promise<BackendData> {
      const cluster = await clusterOf(spec.workspaceId);
      const jobName = jobNameOf(spec.clusterId, spec.backendId);
      const { jobId, adopted } = await submit(cluster, spec, jobName);
      return {
        workspaceId: spec.workspaceId,
        slurmClusterId: cluster.id,
        jobName,
        jobId,
        // Through slurmrestd its ports are fixed (portsOf): no step runs in the job to see who listens.
        ...(cluster.login.mode === 'rest' && { login: 'rest' }),
        ...(adopted && { adopted: true }),
      };
    },

    async describe(refs: readonly InstanceRef[]): Promise<Map<string, Observation>> {
      const answer = new Map<string, Observation>();
      const byWorkspace = new Map<number, { ref: InstanceRef; where: Where }[]>();
      for (const ref of refs) {
        const where = whereOf(ref);
        if (!where) {
          answer.set(ref.backendId, observe(undefined, null));
          continue;
        }
        byWorkspace.set(where.workspaceId, [...(byWorkspace.get(where.workspaceId) ?? []), { ref, where }]);
      }
      await Promise.all(
        [...byWorkspace].map(async ([workspaceId, on]) => {
          const cluster = await clusters.clusterOf(workspaceId);
          if (!cluster) {
            for (const { ref } of on)
              answer.set(ref.backendId, {
                state: 'gone',
                reason: 'Its Slurm cluster was disconnected from the workspace',
              });
            return;
          }
          const jobs = await jobsNamed(
            cluster,
            on.map((o) => o.where.jobName),
          );
          for (const { ref, where } of on)
            answer.set(ref.backendId, observe(jobs.get(where.jobName), where.jobId));
          // Where the job's start said why it could not run (a container's image, its engine), the
          // shared home has it: that first, then Slurm's words. Not through slurmrestd (no shell).
          const ended = on.filter(({ ref }) => answer.get(ref.backendId)?.state === 'gone');
          if (cluster.login.mode === 'rest' || ended.length === 0) return;
          const login = cluster.login as CommandLogin;
          const failed = await whyFailed(
            (script) => runOnLogin(login, script),
            ended.map(({ ref }) => ref.backendId),
          );
          for (const { ref } of ended) {
            const why = failed.get(ref.backendId);
            const seen = answer.get(ref.backendId)!;
            if (why) answer.set(ref.backendId, { ...seen, reason: `${why} (${seen.reason})` });
          }
        }),
      );
      return answer;
    },

    /**
     * Whether one of the instance's own processes listens on the port: a step in its job (srun
     * --overlap, on its node) finds the listener's pid with `ss` and the backend id in its environment.
     */
    async listensOn(instance: InstanceRef, address: { host: string; port: number }): Promise<boolean> {
      const where = whereOf(instance);
      if (!where?.jobId || !/^\d+$/.test(where.jobId) || !Number.isInteger(address.port)) return false;
      const cluster = await clusters.clusterOf(where.workspaceId);
      // slurmrestd starts no step in a running job: the dashboard's port cannot be checked there.
      if (!cluster || cluster.login.mode === 'rest') return false;
      const id = safeId(instance.backendId);
      const probe = `for p in $(ss -ltnpH 'sport = :${address.port}' 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2); do grep -qzx 'CUMULUS_BACKEND_ID=${id}' /proc/$p/environ 2>/dev/null && echo yes && break; done; true`;
      const result = await runOnLogin(
        cluster.login as CommandLogin,
        `srun --jobid=${where.jobId} --overlap --nodes=1 --ntasks=1 --quiet bash -c ${quote(probe)}`,
      ).catch(() => null);
      return !!result?.stdout.includes('yes');
    },

    async stop(instance: InstanceRef): Promise<void> {
      const where = whereOf(instance);
      if (!where) return;
      const cluster = await clusters.clusterOf(where.workspaceId);
      if (!cluster) return;
      const { login } = cluster;
      // By name: every job submitted under it (one adopted after a crash too).
      if (login.mode === 'rest')
        return restCancel(login, where.jobName).catch((err: unknown) => {
          throw loginError(err);
        });
      const result = await runOnLogin(login, `scancel -n ${quote(where.jobName)}`).catch((err: unknown) => {
        throw loginError(err);
      });
      if (result.code !== 0 && !/Invalid job id|already completing or completed/i.test(result.stderr))
        throw loginError(new Error(`scancel failed on ${login.name}: ${result.stderr.trim().slice(0, 300)}`));
    },
  };
}
