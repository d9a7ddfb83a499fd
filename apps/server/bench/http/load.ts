import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What one load run measured. Latencies in milliseconds. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors (timeouts after 10 s among them). */
  errors: number;
  requests: number;
  /** CPU time the server spent per request, in microseconds, where it could be read. */
  cpuPerRequest?: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export type LoadGenerator = 'wrk' | 'autocannon';

const REPO = fileURLToPath(new URL('../../../..', import.meta.url));

const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/**
 * wrk when it is there (installed from Debian by scripts/setup.sh --bench when it can), else
 * autocannon's CLI. Either way the load comes from its own process, never the server's event loop.
 */
export function pickLoadGenerator(): LoadGenerator {
  if (hasWrk()) return 'wrk';
  spawnSync('bash', [path.join(REPO, 'scripts/setup.sh'), '--bench'], { stdio: 'inherit' });
  if (hasWrk()) return 'wrk';
  console.warn('bench: wrk is not installed; measuring with autocannon (slower, so ratios are lower)');
  return 'autocannon';
}

// wrk reports through this script, in microseconds, so nothing is parsed out of its text.
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration":%d,"p50":%d,"p99":%d,"status":%d,"socket":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;

/**
 * Runs the load generator in a child process; a request slower than 10 s counts as an error. With
 * `server`, also the CPU time it spent per request (what the machine's noise changes least).
 */
export async function runLoad(
  generator: LoadGenerator,
  options: LoadOptions,
  server?: { cpuSeconds(): number | undefined },
): Promise<Figures> {
  const before = server?.cpuSeconds();
  const figures = await (generator === 'wrk' ? runWrk(options) : runAutocannon(options));
  const after = server?.cpuSeconds();
  if (before !== undefined && after !== undefined && figures.requests > 0) {
    figures.cpuPerRequest = ((after - before) * 1e6) / figures.requests;
  }
  return figures;
}

async function runWrk({ url, headers = {}, connections, seconds }: LoadOptions): Promise<Figures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-wrk-'));
  const script = path.join(dir, 'report.lua');
  writeFileSync(script, WRK_REPORT);
  try {
    const args = ['-t', '2', '-c', `${connections}`, '-d', `${seconds}s`, '--timeout', '10s', '-s', script];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    const out = await capture('wrk', [...args, url]);
    const line = out.trim().split('\n').pop() ?? '';
    const r = JSON.parse(line) as Record<string, number>;
    const errors = r.status! + r.socket!;
    return {
      rps: r.requests! / (r.duration! / 1e6),
      p50: r.p50! / 1000,
      p99: r.p99! / 1000,
      errors,
      requests: r.requests!,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runAutocannon({ url, headers = {}, connections, seconds }: LoadOptions): Promise<Figures> {
  const bin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(connections), '-d', String(seconds), '-t', '10'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const r = JSON.parse(await capture(process.execPath, [...args, url])) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    requests: r.requests.total,
  };
}

function capture(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err.trim()}`)),
    );
  });
}

/** The commit measured, so figures in notes can be traced. */
export function describeCommit(): string {
  try {
    return execFileSync('git', ['-C', REPO, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown commit';
  }
}
