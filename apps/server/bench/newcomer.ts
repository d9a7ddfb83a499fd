import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
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
interface Pass {
  label: string;
  runs: Run[];
  timelines: string[][];
  /** The warm processes waiting before the first start: count, resident MiB, CPU seconds over 2 s. */
  pool: { count: number; rssMib: number; cpuSeconds: number } | null;
}

/** The processes waiting in a server's warm pool (their working directory is `<data dir>/warm`). */
async function warmPool(dataDir: string): Promise<{ count: number; rssMib: number; cpuSeconds: number }> {
  const dir = path.join(dataDir, 'warm');
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await readlink(`/proc/${entry}/cwd`).catch(() => '')) === dir) pids.push(Number(entry));
  }
  const cpu = async () => {
    let ticks = 0;
    for (const pid of pids) {
      const stat = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }
    return ticks / 100;
  };
  const before = await cpu();
  await new Promise((r) => setTimeout(r, 2000));
  let rssKib = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'latin1').catch(() => '');
    rssKib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return { count: pids.length, rssMib: rssKib / 1024, cpuSeconds: (await cpu()) - before };
}

/** Six starts on a new server with `env` over its defaults. */
async function pass(label: string, serverEnv: Record<string, string>): Promise<Pass> {
  const port = await freePort();
  const bench = await startBenchServer(
    { CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}`, ...serverEnv },
    port,
  );
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
  let pool: Pass['pool'] = null;
  try {
    const size = bench.server.deps.config.warmProcesses;
    // Each start as on a server that has been up a while: its pool full again, the replacements'
    // imports done (they would otherwise run during the next LocalCluster, slowing the baseline).
    const refilled = async () => {
      for (let i = 0; i < 600 && (await warmPool(bench.dataDir)).count < size; i++) await sleep(100);
      return warmPool(bench.dataDir);
    };
    if (size > 0) pool = await refilled();
    for (let i = 0; i < RUNS; i++) {
      if (size > 0 && i > 0) await refilled();
      const run = await python(NEWCOMER, env);
      runs.push(run);
      timelines.push(await breakdown(bench.base, token, run));
    }
  } finally {
    await bench.close();
  }
  return { label, runs, timelines, pool };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `cumulus.Cluster(n_workers=2)` as a newcomer runs it (package sync and the default environment
 * on, every server default) against `distributed.LocalCluster(n_workers=2)` from the same Python
 * in the same run: the first start on a new server, then later ones, and where the seconds go;
 * before (every instance a new process: CUMULUS_WARM_PROCESSES=0) and after (the default pool).
 */
export async function benchNewcomer(): Promise<void> {
  const passes = [
    await pass('before: no warm processes (CUMULUS_WARM_PROCESSES=0)', { CUMULUS_WARM_PROCESSES: '0' }),
    await pass('after: every default (a pool of warm processes)', {}),
  ];
  const ratio = (r: Run) => r.seconds / r.result.local;
  const row = (label: string, r: Run) =>
    console.log(
      `    ${label.padEnd(28)} ${r.seconds.toFixed(2)} s   LocalCluster ${r.result.local.toFixed(2)} s   ` +
        `ratio ${ratio(r).toFixed(2)}   load ${r.result.load.toFixed(1)}`,
    );
  console.log(
    "\nA newcomer's cluster: cumulus.Cluster(n_workers=2), every default, beside " +
      'LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) (best of two) in the same ' +
      'Python process; each from the constructor call until Client(cluster).wait_for_workers(2) returns',
  );
  for (const { label, runs, pool } of passes) {
    console.log(`\n  ${label}`);
    if (pool)
      console.log(
        `    the pool: ${pool.count} processes waiting, ${pool.rssMib.toFixed(0)} MiB resident in all, ` +
          `${pool.cpuSeconds.toFixed(2)} s of CPU over 2 s idle`,
      );
    for (const [i, r] of runs.entries()) row(i === 0 ? 'first start on a new server' : `later start ${i}`, r);
    const later = runs.slice(1).map(ratio);
    console.log(
      `    first start ratio ${ratio(runs[0]!).toFixed(2)} (goal <= 2)   later starts, median ratio ` +
        `${median(later).toFixed(2)} (goal <= 1.2)   load average ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}`,
    );
    console.log(`    lines printed by each start: ${runs.map((r) => r.lines.length).join(', ')} (goal <= 3)`);
  }
  // After: the first start and the last later one; the others look like the last.
  const { timelines } = passes.at(-1)!;
  for (const [i, lines] of timelines.entries()) {
    if (i !== 0 && i !== timelines.length - 1) continue;
    console.log(`\n  Where the seconds go, after, start ${i + 1} (ms after Cluster() was called):`);
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
