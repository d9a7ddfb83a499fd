import { createToken } from '../src/domains/identity/tokens/service.js';
import { startSlurmRig } from '../test/helpers/slurm.js';
import { startSshRig } from '../test/helpers/ssh-hosts.js';
import { freePort, localCluster, median } from './clusters-start.js';
import { type Phases, phasesOf, printPhases } from './phases.js';
import { benchCaller, registerBenchUser, startBenchServer } from './server.js';

const RUNS = Number(process.env.CUMULUS_BENCH_RUNS ?? 3);

/**
 * A cluster's start on the `ssh` backend (issue 40; issue 43's goal: at most 1.5 × the local
 * backend's) and on the `slurm` backend, against the same cluster on the local backend and against
 * distributed.LocalCluster, all in the same run on the same machine. The SSH host is this machine: a
 * real sshd on 127.0.0.2 (test/helpers/ssh-hosts.ts); the Slurm cluster is real Slurm daemons here
 * (test/helpers/slurm.ts), submitted to from this machine. So the figures are what SSH, sbatch and
 * Slurm's scheduling, the agent's fetch over HTTP and placement add, not a network's latency. Each
 * start is timed from `POST clusters` to `ready` (1 scheduler + 2 workers), the backends taking
 * turns run by run so that a change in the machine's load falls on each.
 */
export async function benchSshStart(): Promise<void> {
  const port = await freePort();
  const bench = await startBenchServer(
    {
      CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CUMULUS_RECONCILE_INTERVAL_SECONDS: '1',
      CUMULUS_DEFAULT_ENVIRONMENT: 'off',
      CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '2',
      CUMULUS_SLURM_LOCAL_LOGIN: 'true',
    },
    port,
  );
  const rig = await startSshRig(1);
  const slurm = await startSlurmRig({ cores: 6, memoryMib: 6 * 1024 });
  const { server } = bench;
  const user = await registerBenchUser(server, 'sshbench');
  const { token } = await createToken(server.deps.db, user, { label: 'bench' });
  const call = benchCaller(bench.base, token);
  const slug = (await call('GET', '/api/v2/user/me')).default_account.slug;
  // The SSH host belongs to a workspace of its own, registered once as a team would: its warm
  // processes (compute/ssh/warm.ts, CUMULUS_SSH_WARM_PROCESSES, every default on) start then.
  const sshUser = await registerBenchUser(server, 'sshbench-hosts');
  const sshCall = benchCaller(
    bench.base,
    (await createToken(server.deps.db, sshUser, { label: 'bench' })).token,
  );
  const sshSlug = (await sshCall('GET', '/api/v2/user/me')).default_account.slug;
  const host = rig.hosts[0]!;
  const hostBody = {
    name: 'this-machine',
    address: host.address,
    port: host.port,
    user: rig.user,
    host_key: host.hostKey,
    private_key: rig.privateKey,
    cores: 4,
    memory_mib: 8192,
    python: '/usr/bin/python3',
  };
  const own = { call, slug };
  /** Each backend's phases, run by run (phases.ts): what the state records say of where the time went. */
  const timelines = new Map<string, Phases[]>();
  /** Seconds from create to ready; the cluster is stopped (and its stop awaited) before answering. */
  const start = async (name: string, { call, slug } = own): Promise<number> => {
    const started = performance.now();
    const createdAt = Date.now();
    const { id } = await call('POST', `/api/v2/clusters/account/${slug}/`, { name, workers: 2 });
    for (;;) {
      const details = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
      if (details.current_state.state === 'ready') break;
      if (['error', 'stopped'].includes(details.current_state.state))
        throw new Error(`${name}: ${details.current_state.reason}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const kind = name.replace(/-\d+$/, '');
    const states = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}/states`);
    timelines.set(kind, [...(timelines.get(kind) ?? []), phasesOf(states, createdAt)]);
    await call('DELETE', `/api/v2/clusters/account/${slug}/id/${id}`);
    for (;;) {
      const details = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
      if (details.current_state.state === 'stopped') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return seconds;
  };
  const local: number[] = [];
  const ssh: number[] = [];
  const onSlurm: number[] = [];
  const bare: number[] = [];
  const warmWaiting: number[] = [];
  const slurmBody = {
    name: 'this-machine',
    login: 'local',
    partition: slurm.partition,
    node_cores: slurm.cores,
    node_memory_mib: slurm.memoryMib,
    python: '/usr/bin/python3',
  };
  try {
    await sshCall('POST', `/api/v2/ssh-hosts/${sshSlug}`, hostBody);
    for (let run = 0; run < RUNS; run++) {
      // No host registered: the workspace's clusters run on the local backend.
      local.push(await start(`local-${run}`));
      // As many warm processes wait on the host as the local backend's pool holds.
      warmWaiting.push(await waitForWarm(rig.home, server.deps.config.sshWarmProcesses));
      ssh.push(await start(`ssh-${run}`, { call: sshCall, slug: sshSlug }));
      const { id: slurmId } = await call('POST', `/api/v2/slurm-clusters/${slug}`, slurmBody);
      onSlurm.push(await start(`slurm-${run}`));
      await call('DELETE', `/api/v2/slurm-clusters/${slug}/${slurmId}`);
      bare.push(await localCluster());
    }
  } finally {
    await bench.close();
    await rig.close();
    await slurm.close();
  }
  const [l, s, b, u] = [median(local), median(ssh), median(bare), median(onSlurm)];
  const runs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const [load] = (await import('node:os')).loadavg();
  console.log(
    `\nCluster start on an SSH host and on Slurm (this machine), 1 scheduler + 2 workers (median of ${RUNS})`,
  );
  console.log(`  ssh backend (create -> ready)            ${s.toFixed(2)} s   runs: ${runs(ssh)}`);
  console.log(`  slurm backend (create -> ready)          ${u.toFixed(2)} s   runs: ${runs(onSlurm)}`);
  console.log(`  local backend (create -> ready)          ${l.toFixed(2)} s   runs: ${runs(local)}`);
  console.log(`  distributed.LocalCluster(n_workers=2)    ${b.toFixed(2)} s   runs: ${runs(bare)}`);
  console.log(`  ratio ssh / local backend                ${(s / l).toFixed(2)}   (goal <= 1.5)`);
  console.log(
    `  warm processes on the host before each ssh start: ${warmWaiting.join(', ')} (CUMULUS_SSH_WARM_PROCESSES=${server.deps.config.sshWarmProcesses})`,
  );
  console.log(`  ratio slurm / local backend              ${(u / l).toFixed(2)}`);
  console.log(
    `  ratio ssh / LocalCluster                 ${(s / b).toFixed(2)}   load average ${load?.toFixed(1)}`,
  );
  printPhases(timelines);
}

/** Waits (up to 30 s) until `size` warm processes are ready in the host's pools; answers how many are. */
async function waitForWarm(home: string, size: number): Promise<number> {
  const { readdir, readFile } = await import('node:fs/promises');
  const ready = async () => {
    let n = 0;
    const pools = await readdir(`${home}/.cumulus/warm`).catch(() => [] as string[]);
    for (const pool of pools)
      for (const w of await readdir(`${home}/.cumulus/warm/${pool}`).catch(() => [] as string[]))
        if (
          w.startsWith('warm-') &&
          (await readFile(`${home}/.cumulus/warm/${pool}/${w}/out`, 'utf8').catch(() => '')) === 'ready\n'
        )
          n++;
    return n;
  };
  const until = Date.now() + 30_000;
  while ((await ready()) < size && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return ready();
}
