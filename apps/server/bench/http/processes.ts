import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface Process {
  base: string;
  /** CPU seconds (user + system) the process has used so far; undefined where /proc is missing. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

const CLOCK_TICKS = (() => {
  const ticks = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(ticks.stdout) || 100;
})();

function cpuSecondsOf(child: ChildProcess): () => number | undefined {
  return () => {
    try {
      // Fields 14 and 15 (utime, stime), counted after the parenthesised command name.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `npm start` runs the compiled server; the bench measures the same code. */
export function buildServer(): void {
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: SERVER_DIR, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bench: the server does not build');
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** The yardstick: bare.mjs in its own process. */
export function startBare(): Promise<Process> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./bare.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => {
      resolve({
        base: `http://127.0.0.1:${chunk.toString().trim()}`,
        cpuSeconds: cpuSecondsOf(child),
        stop: stopper(child),
      });
    });
  });
}

/**
 * `node dist/main.js` as `npm start` runs it, with `env` over the caller's environment; its log goes
 * to `logFile`. `nodeFlags` (e.g. --cpu-prof) are given to node. Resolves once it answers health.
 */
export async function startCumulus(
  env: Record<string, string | undefined>,
  logFile: string,
  nodeFlags: string[] = [],
): Promise<Process> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeFlags, 'dist/main.js'], {
    cwd: SERVER_DIR,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Cumulus exited ${child.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { base, cpuSeconds: cpuSecondsOf(child), stop: stopper(child) };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('Cumulus did not answer /api/health within 120 s');
}
