import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { freePort, median } from './clusters-start.js';
import { registerBenchUser, startBenchServer } from './server.js';

const PYTHON = '/usr/bin/python3';
const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../python');
// The first start on a new server, then later ones; each Python process times LocalCluster first.
const RUNS = 6;

/**
 * One Python process (distributed already imported, as in a notebook that uses Dask): the baseline
 * `LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)` twice (its best is the
 * figure), then a newcomer's `cumulus.Cluster(n_workers=2)` with every default, each timed from the
 * constructor call until `Client(cluster).wait_for_workers(2)` returns.
 */
const NEWCOMER = `
import json, os, time
import distributed
from distributed import Client, LocalCluster
local = []
for _ in range(2):
    t = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as lc:
        with Client(lc) as c:
            c.wait_for_workers(2)
            local.append(time.perf_counter() - t)
import cumulus
print("== start", flush=True)
t0 = time.time()
t = time.perf_counter()
cluster = cumulus.Cluster(n_workers=2)
ready = time.time()
client = Client(cluster)
client.wait_for_workers(2)
seconds = time.perf_counter() - t
print("== " + json.dumps({"t0": t0, "imported": t0, "ready": ready, "both": time.time(), "seconds": seconds,
    "local": min(local), "load": os.getloadavg()[0],
    "phases": getattr(cluster, "_phases", []), "id": cluster.cluster_id, "workspace": cluster.workspace}), flush=True)
client.close()
cluster.close()
`;

interface Run {
  seconds: number;
  lines: string[];
  result: {
    t0: number;
    imported: number;
    ready: number;
    both: number;
    seconds: number;
    local: number;
    load: number;
    phases: [string, number][];
  } & {
    id: number;
    workspace: string;
  };
}

/** The script's report and what the newcomer's start printed (between "== start" and the report). */
function python(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let started = false;
    let result: Run['result'] | undefined;
    const lines: string[] = [];
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      for (let at = out.indexOf('\n'); at >= 0; at = out.indexOf('\n')) {
        const line = out.slice(0, at);
        out = out.slice(at + 1);
        if (line === '== start') started = true;
        else if (line.startsWith('== ')) result = JSON.parse(line.slice(3));
        else if (started && !result) lines.push(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) =>
      result
        ? resolve({ seconds: result.seconds, lines, result })
        : reject(new Error(`exited ${code}: ${lines.join('\n')}`)),
    );
  });
}

/**
 * `cumulus.Cluster(n_workers=2)` as a newcomer runs it (package sync and the default environment
 * on, every server default) against `distributed.LocalCluster(n_workers=2)` from the same Python
 * in the same run: the first start on a new server, then later ones, and where the seconds go.
 */
export async function benchNewcomer(): Promise<void> {
  const port = await freePort();
  const bench = await startBenchServer({ CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
  const user = await registerBenchUser(bench.server, 'newcomer');
  const { token } = await createToken(bench.server.deps.db, user, { label: 'bench' });
  const env = {
    CUMULUS_SERVER: bench.base,
    CUMULUS_API_TOKEN: token,
    HOME: mkdtempSync(path.join(tmpdir(), 'cumulus-newcomer-')),
    PYTHONPATH: CLIENT_DIR,
  };
  const runs: Run[] = [];
  const timelines: string[][] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await python(NEWCOMER, env);
      runs.push(run);
      timelines.push(await breakdown(bench.base, token, run));
    }
  } finally {
    await bench.close();
  }
  const ratio = (r: Run) => r.seconds / r.result.local;
  const row = (label: string, r: Run) =>
    console.log(
      `  ${label.padEnd(28)} ${r.seconds.toFixed(2)} s   LocalCluster ${r.result.local.toFixed(2)} s   ` +
        `ratio ${ratio(r).toFixed(2)}   load ${r.result.load.toFixed(1)}`,
    );
  console.log(
    "\nA newcomer's cluster: cumulus.Cluster(n_workers=2), every default, beside " +
      'LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) (best of two) in the same ' +
      'Python process; each from the constructor call until Client(cluster).wait_for_workers(2) returns',
  );
  for (const [i, r] of runs.entries()) row(i === 0 ? 'first start on a new server' : `later start ${i}`, r);
  const later = runs.slice(1).map(ratio);
  console.log(
    `  first start ratio ${ratio(runs[0]!).toFixed(2)} (goal <= 2)   later starts, median ratio ` +
      `${median(later).toFixed(2)} (goal <= 1.2)   load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  console.log(`  lines printed by each start: ${runs.map((r) => r.lines.length).join(', ')} (goal <= 3)`);
  // The first start and the last later one; the others look like the last.
  for (const [i, lines] of timelines.entries()) {
    if (i !== 0 && i !== timelines.length - 1) continue;
    console.log(`\n  Where the seconds go, start ${i + 1} (ms after Cluster() was called):`);
    for (const line of lines) console.log(`    ${line}`);
  }
}

interface StateRecord {
  updated: string;
  state: string;
  stateful_object: { name: string | null };
}

/** The client's own steps and the server's records of the start, on one clock. */
async function breakdown(base: string, token: string, run: Run): Promise<string[]> {
  const { t0, ready, both, phases, id, workspace } = run.result;
  const ms = (epochSeconds: number) => Math.round((epochSeconds - t0) * 1000);
  const rows: [number, string][] = [
    [ms(ready), 'client: Cluster() returned'],
    [ms(both), 'client: both workers connected'],
  ];
  const steps: Record<string, string> = {
    start: 'client: Cluster() called (distributed imported)',
    'package scan': 'client: identity, backend, package levels asked; packages scanned',
    'sync request': 'client: package sync answered',
    'build ready': 'client: environment built',
    'build reused': 'client: environment built already (no build)',
    'package sync done': 'client: package sync done',
    create: 'client: create answered',
    'scheduler connected': 'client: connected to the scheduler',
    'credentials forwarded': 'client: local AWS credentials looked for (and forwarded)',
    'workers connected': 'client: the scheduler has the workers',
    ready: 'client: saw the cluster ready',
  };
  for (const [step, at] of phases) if (steps[step]) rows.push([ms(at), steps[step]]);
  const headers = { authorization: `ApiToken ${token}` };
  const res = await fetch(`${base}/api/v2/clusters/account/${workspace}/id/${id}/states`, { headers });
  const what: Record<string, Record<string, string>> = {
    cluster: { starting: 'server: loop picked the cluster up', ready: 'server: cluster ready' },
    scheduler_instance: { starting: 'agent spawned', started: 'agent bootstrapped' },
    worker_instance: { starting: 'agent spawned', started: 'agent bootstrapped' },
    scheduler: { starting: 'Dask spawned', started: 'scheduler up' },
    worker: { starting: 'Dask spawned', started: 'registered with the scheduler' },
  };
  for (const [type, records] of Object.entries((await res.json()) as Record<string, StateRecord[]>))
    for (const r of records) {
      const label = what[type]?.[r.state];
      if (!label) continue;
      const who =
        type === 'cluster' ? '' : `server: ${(r.stateful_object.name ?? '').replace(`${workspace}-`, '')}: `;
      rows.push([Math.round(new Date(r.updated).getTime() - t0 * 1000), `${who}${label}`]);
    }
  return rows.sort((a, b) => a[0] - b[0]).map(([at, label]) => `${String(at).padStart(6)}  ${label}`);
}
