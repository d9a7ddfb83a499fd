import { describe, expect, it } from 'vitest';
import type { LaunchSpec } from '../src/compute/backend.js';
import { sbatchFlags } from '../src/compute/slurm/sbatch.js';
import { jobAsk, restPorts, type SlurmCluster } from '../src/compute/slurm/slurm-backend.js';

/**
 * What a Slurm job asks (compute/slurm/slurm-backend.ts), without a Slurm: the rig has no GPUs,
 * so a worker's `--gres=gpu:N` and its refusal are checked here, as sbatch's arguments.
 */
const cluster: SlurmCluster = {
  id: 1,
  workspaceId: 1,
  name: 'hpc',
  login: { mode: 'local', name: 'hpc (this machine)' },
  partition: 'gpu',
  account: 'proj42',
  qos: null,
  timeLimitMinutes: 60,
  nodeCores: 8,
  nodeMemoryMib: 16_384,
  nodeGpus: 2,
  python: 'python3',
};
const spec = (gpus?: number): LaunchSpec => ({
  instanceId: 1,
  backendId: 'slurm-abc',
  role: 'worker',
  name: 'c-worker-1',
  clusterId: 7,
  workspaceId: 1,
  instanceTypes: [],
  clusterToken: 't',
  serverUrl: 'http://127.0.0.1:1',
  unreachableTimeoutMs: 1000,
  size: { cores: 2, memoryMib: null },
  ...(gpus !== undefined && { gpus }),
});

describe('a Slurm job’s ask', () => {
  it('asks a worker’s GPUs as the gpu GRES, and none without', () => {
    expect(sbatchFlags(jobAsk(cluster, spec(2), 'cumulus-c7-slurm-abc'))).toBe(
      "'--job-name=cumulus-c7-slurm-abc' '--nodes=1' '--ntasks=1' '--cpus-per-task=2' '--mem=4096M' '--gres=gpu:2' '--output=slurm-%j.out' '--parsable' '--partition=gpu' '--account=proj42' '--time=60'",
    );
    expect(sbatchFlags(jobAsk(cluster, spec(), 'j'))).not.toContain('--gres');
  });

  it('refuses more GPUs than a node has, saying how many it has', () => {
    expect(() => jobAsk(cluster, spec(3), 'j')).toThrow(
      'The nodes of the Slurm cluster hpc have 2 GPUs (node_gpus): a worker of 3 cannot run there.',
    );
    expect(() => jobAsk({ ...cluster, nodeGpus: 0 }, spec(1), 'j')).toThrow(
      'The nodes of the Slurm cluster hpc have no GPUs (node_gpus): a worker of 1 cannot run there.',
    );
  });

  it('fixes an instance’s dashboard and Jupyter ports through slurmrestd, by its backend id', () => {
    const ports = restPorts('slurm-abc');
    expect(ports).toEqual(restPorts('slurm-abc'));
    expect(ports.dashboard).toBeGreaterThanOrEqual(20_000);
    expect(ports.dashboard).toBeLessThan(32_000);
    expect(ports.jupyter).toBe(ports.dashboard + 1);
    expect(restPorts('slurm-abd').dashboard).not.toBe(ports.dashboard);
  });
});
