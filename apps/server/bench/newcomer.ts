import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { freePort, median } from './clusters-start.js';
import { registerBenchUser, startBenchServer } from './server.js';

const PYTHON = '/usr/bin/python3';
const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../python');
// The first start, then later ones: a machine shared with other work moves one start by 0.5 s, so
// the later starts' median is the figure, beside LocalCluster's median of as many runs.
const RUNS = 6;

/** A newcomer's script: every default; "ready" once the constructor returns, then its timings. */
const NEWCOMER = `
import json, time
t0 = time.time()
import cumulus
imported = time.time()
cluster = cumulus.Cluster(n_workers=2)
print("== ready", flush=True)
ready = time.time()
cluster.wait_for_workers(2)
print("== " + json.dumps({"t0": t0, "imported": imported, "ready": ready, "both": time.time(),
    "phases": getattr(cluster, "_phases", []), "id": cluster.cluster_id, "workspace": cluster.workspace}), flush=True)
cluster.close()
`;
const LOCAL = `
from distributed import LocalCluster
cluster = LocalCluster(n_workers=2)
print("== ready", flush=True)
cluster.close()
`;

interface Run {
  seconds: number;
  lines: string[];
  result: { t0: number; imported: number; ready: number; both: number; phases: [string, number][] } & {
    id: number;
    workspace: string;
  };
}

/** Seconds from spawning the script to its "== ready" line; what it printed before; its report. */
function python(script: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(PYTHON, ['-c', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seconds = 0;
    let result: Run['result'] | undefined;
    const lines: string[] = [];
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      for (let at = out.indexOf('\n'); at >= 0; at = out.indexOf('\n')) {
        const line = out.slice(0, at);
        out = out.slice(at + 1);
        if (line === '== ready') seconds ||= (performance.now() - started) / 1000;
        else if (line.startsWith('== ')) result = JSON.parse(line.slice(3));
        else if (!seconds) lines.push(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) =>
      seconds
        ? resolve({ seconds, lines, result: result! })
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
  const local: number[] = [];
  const timelines: string[][] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await python(NEWCOMER, env);
      runs.push(run);
      timelines.push(await breakdown(bench.base, token, run));
      local.push((await python(LOCAL, {})).seconds);
    }
  } finally {
    await bench.close();
  }
  const l = median(local);
  const row = (label: string, s: number) =>
    console.log(`  ${label.padEnd(44)} ${s.toFixed(2)} s   ratio ${(s / l).toFixed(2)}`);
  console.log("\nA newcomer's cluster: cumulus.Cluster(n_workers=2), every default (same machine, same run)");
  console.log(
    `  distributed.LocalCluster(n_workers=2), median ${l.toFixed(2)} s   runs: ${local.map((x) => x.toFixed(2)).join(', ')}`,
  );
  for (const [i, r] of runs.entries())
    row(i === 0 ? 'first start on a new server' : `later start ${i}`, r.seconds);
  row('later starts, median', median(runs.slice(1).map((r) => r.seconds)));
  console.log(`  lines printed by each start: ${runs.map((r) => r.lines.length).join(', ')}`);
  // The first start and the last later one; the others look like the last.
  for (const [i, lines] of timelines.entries()) {
    if (i !== 0 && i !== timelines.length - 1) continue;
    console.log(`\n  Where the seconds go, start ${i + 1} (ms after the Python process began):`);
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
  const { t0, imported, ready, both, phases, id, workspace } = run.result;
  const ms = (epochSeconds: number) => Math.round((epochSeconds - t0) * 1000);
  const rows: [number, string][] = [
    [ms(imported), 'client: imported cumulus'],
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
