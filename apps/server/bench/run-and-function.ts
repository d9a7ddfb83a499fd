import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { freePort, median } from './clusters-start.js';
import { registerBenchUser, startBenchServer } from './server.js';

const PYTHON = '/usr/bin/python3';
const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../python');
const RUNS = 5;
const CALLS = 30;
const run = promisify(execFile);

/**
 * One Python process: a `@cumulus.function` on its warm cluster, each call timed, beside
 * `Client.submit(...).result()` of the same function through a client of that cluster (the
 * baseline: Dask's own round trip), alternated so that both see the same machine.
 */
const FUNCTION = `
import json, os, time
import cumulus
@cumulus.function(n_workers=1)
def inc(x):
    return x + 1
inc(1)  # the cluster's start (and a first call)
client = inc.client
client.submit(inc._fn, 1, pure=False).result()
calls, submits = [], []
for i in range(${CALLS}):
    t = time.perf_counter(); inc(i); calls.append(time.perf_counter() - t)
    t = time.perf_counter(); client.submit(inc._fn, i, pure=False).result(); submits.append(time.perf_counter() - t)
print("== " + json.dumps({"calls": calls, "submits": submits, "load": os.getloadavg()[0]}), flush=True)
inc.cluster.close()
`;

/**
 * The two goals of issue 43 beside the newcomer's start, on a server with every default: `cumulus
 * run --name NAME -- true` on a run cluster kept from a first run (the command as a user types it,
 * Python's start-up included: goal <= 0.5 s), and a `@cumulus.function` call on its warm cluster
 * against a `Client.submit` round trip on the same cluster (goal <= 2x).
 */
export async function benchRunAndFunction(): Promise<void> {
  const port = await freePort();
  const bench = await startBenchServer({ CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
  const user = await registerBenchUser(bench.server, 'runner');
  const { token } = await createToken(bench.server.deps.db, user, { label: 'bench' });
  const home = mkdtempSync(path.join(tmpdir(), 'cumulus-run-bench-'));
  const env = {
    ...process.env,
    CUMULUS_SERVER: bench.base,
    CUMULUS_API_TOKEN: token,
    HOME: home,
    PYTHONPATH: CLIENT_DIR,
  };
  const cli = async () => {
    const started = performance.now();
    await run(PYTHON, ['-m', 'cumulus', 'run', '--name', 'bench-run', '--', 'true'], {
      env,
      cwd: home,
      timeout: 300_000,
    });
    return (performance.now() - started) / 1000;
  };
  let first = 0;
  const reused: number[] = [];
  let fn: { calls: number[]; submits: number[]; load: number } | undefined;
  try {
    first = await cli();
    for (let i = 0; i < RUNS; i++) reused.push(await cli());
    fn = await new Promise((resolve, reject) => {
      const child = spawn(PYTHON, ['-c', FUNCTION], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
      });
      child.on('exit', (code) => {
        const line = out.split('\n').find((l) => l.startsWith('== '));
        line ? resolve(JSON.parse(line.slice(3))) : reject(new Error(`exited ${code}: ${err.slice(-2000)}`));
      });
    });
    await run(PYTHON, ['-m', 'cumulus', 'cluster', 'stop', 'bench-run'], { env, cwd: home }).catch(
      () => undefined,
    );
  } finally {
    await bench.close();
  }
  const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
  console.log('\ncumulus run and @cumulus.function on warm clusters (every server default):');
  console.log(
    `  cumulus run --name bench-run -- true: first (starts the run cluster) ${first.toFixed(2)} s; ` +
      `reused, median of ${RUNS} ${median(reused).toFixed(2)} s (goal <= 0.5 s), ` +
      `runs ${reused.map((s) => s.toFixed(2)).join(', ')}`,
  );
  const call = median(fn!.calls);
  const submit = median(fn!.submits);
  console.log(
    `  @cumulus.function call, median of ${CALLS}: ${ms(call)}; Client.submit(...).result() on its cluster ` +
      `${ms(submit)}; ratio ${(call / submit).toFixed(2)} (goal <= 2)   load ${fn!.load.toFixed(1)} ` +
      `(now ${(os.loadavg()[0] ?? 0).toFixed(1)})`,
  );
}
