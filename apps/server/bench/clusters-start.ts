import { spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { benchCaller, registerBenchUser, startBenchServer } from './server.js';

const RUNS = 3;
const PYTHON = '/usr/bin/python3';

const LOCAL_CLUSTER = `
import time, sys
from distributed import Client, LocalCluster
cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
client = Client(cluster)
client.wait_for_workers(2)
print("ready", flush=True)
client.close(); cluster.close()
`;

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Seconds from starting /usr/bin/python3 to a LocalCluster with 2 workers (imports included). */
export function localCluster(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(PYTHON, ['-c', LOCAL_CLUSTER], { stdio: ['ignore', 'pipe', 'ignore'] });
    let ready = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (!ready && chunk.toString().includes('ready')) ready = (performance.now() - started) / 1000;
    });
    child.on('exit', (code) => (ready ? resolve(ready) : reject(new Error(`LocalCluster exited ${code}`))));
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Seconds from `POST clusters` to `ready` (1 scheduler + 2 workers, each its own instance: an
 * agent process that bootstraps over HTTP and starts Dask) against distributed.LocalCluster with
 * 2 workers started by the same Python, in the same run.
 */
export async function benchClusterStart(): Promise<void> {
  const port = await freePort();
  const bench = await startBenchServer(
    {
      CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CUMULUS_RECONCILE_INTERVAL_SECONDS: '1',
      // Cluster start alone: no default environment build beside it.
      CUMULUS_DEFAULT_ENVIRONMENT: 'off',
      CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '2',
    },
    port,
  );
  const { server } = bench;
  const user = await registerBenchUser(server, 'clusterbench');
  const { token } = await createToken(server.deps.db, user, { label: 'bench' });
  const headers = { authorization: `ApiToken ${token}`, 'content-type': 'application/json' };
  const call = benchCaller(bench.base, token);
  const slug = (await call('GET', '/api/v2/user/me')).default_account.slug;
  const api: number[] = [];
  const local: number[] = [];
  const timelines: string[][] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const t0 = Date.now();
      const { id } = await call('POST', `/api/v2/clusters/account/${slug}/`, {
        name: `bench-${run}`,
        workers: 2,
      });
      const answered = Date.now() - t0;
      for (;;) {
        const details = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
        if (details.current_state.state === 'ready') break;
        if (details.current_state.state === 'error') throw new Error(details.current_state.reason);
        await new Promise((r) => setTimeout(r, 50));
      }
      api.push((performance.now() - started) / 1000);
      timelines.push(await timeline(bench.base, headers, slug, id, t0, answered));
      await call('DELETE', `/api/v2/clusters/account/${slug}/id/${id}`);
      for (;;) {
        const details = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
        if (details.current_state.state === 'stopped') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      local.push(await localCluster());
    }
  } finally {
    await bench.close();
  }
  const a = median(api);
  const l = median(local);
  console.log(`\nCluster start, 1 scheduler + 2 workers (median of ${RUNS}, same machine, same run)`);
  console.log(
    `  through the API (create -> ready)        ${a.toFixed(2)} s   runs: ${api.map((x) => x.toFixed(2)).join(', ')}`,
  );
  console.log(
    `  distributed.LocalCluster(n_workers=2)    ${l.toFixed(2)} s   runs: ${local.map((x) => x.toFixed(2)).join(', ')}`,
  );
  console.log(`  ratio API / LocalCluster                 ${(a / l).toFixed(2)}`);
  const at = api.indexOf(a);
  console.log(`\n  Where the seconds go (run ${at + 1}, ms after the create request was sent):`);
  for (const line of timelines[at] ?? []) console.log(`    ${line}`);
}

interface StateRecord {
  updated: string;
  state: string;
  stateful_object: { name: string | null };
}

/** The start as the server recorded it: every transition of the cluster, its instances and processes. */
async function timeline(
  base: string,
  headers: Record<string, string>,
  slug: string,
  id: number,
  t0: number,
  answered: number,
): Promise<string[]> {
  const res = await fetch(`${base}/api/v2/clusters/account/${slug}/id/${id}/states`, { headers });
  const states = (await res.json()) as Record<string, StateRecord[]>;
  const what: Record<string, Record<string, string>> = {
    cluster: { starting: 'loop picked the cluster up', ready: 'cluster ready' },
    scheduler_instance: { starting: 'launched (agent spawned)', started: 'agent bootstrapped' },
    worker_instance: { starting: 'launched (agent spawned)', started: 'agent bootstrapped' },
    scheduler: { starting: 'Dask process spawned', started: 'Dask listening, reported' },
    worker: { starting: 'Dask process spawned', started: 'registered with the scheduler, reported' },
  };
  const rows: [number, string][] = [[answered, 'API answered the create request']];
  for (const [type, records] of Object.entries(states))
    for (const r of records) {
      const label = what[type]?.[r.state];
      if (!label) continue;
      const who = type === 'cluster' ? '' : `${(r.stateful_object.name ?? '').replace(/^bench-\d+-/, '')}: `;
      rows.push([new Date(r.updated).getTime() - t0, `${who}${label}`]);
    }
  return rows.sort((a, b) => a[0] - b[0]).map(([ms, label]) => `${String(ms).padStart(6)}  ${label}`);
}
