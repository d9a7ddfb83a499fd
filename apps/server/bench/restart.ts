import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './clusters-start.js';
import { type Process, startBare, startCumulus } from './http/processes.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RUNS = 3;

interface Start {
  seconds: number;
  cpu: number | undefined;
}

async function timed(start: () => Promise<Process>): Promise<Start> {
  const began = performance.now();
  const process_ = await start();
  const seconds = (performance.now() - began) / 1000;
  const cpu = process_.cpuSeconds();
  await process_.stop();
  return { seconds, cpu };
}

const show = (s: Start) => `${s.seconds.toFixed(2)} s (CPU ${s.cpu?.toFixed(2) ?? '?'} s)`;

/**
 * A restart as an operator does it: `npm start` on a built tree (its staleness check, then
 * `node dist/main.js` on existing data) until /api/health answers, against a bare Fastify
 * process's start in the same run. The first start on an empty data directory (migrations) is
 * printed beside it.
 */
export async function benchRestart(): Promise<void> {
  console.log('\n== restart: npm start on a built tree, to /api/health answering');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('bench: the console or the server does not build');

  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-restart-'));
  const env = {
    ...process.env,
    CUMULUS_DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    CUMULUS_LOG_LEVEL: 'warn',
  };
  const log = path.join(dataDir, 'server.log');
  try {
    const first = await timed(() => startCumulus(env, log));
    const restarts: Start[] = [];
    const bare: Start[] = [];
    for (let i = 0; i < RUNS; i++) {
      // The staleness check is part of every `npm start`.
      const check = performance.now();
      spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT });
      const checkSeconds = (performance.now() - check) / 1000;
      const run = await timed(() => startCumulus(env, log));
      restarts.push({ ...run, seconds: run.seconds + checkSeconds });
      bare.push(await timed(startBare));
    }
    const restart = median(restarts.map((r) => r.seconds));
    const yardstick = median(bare.map((r) => r.seconds));
    console.log(`first start (empty data, migrations): ${show(first)}`);
    console.log(`restarts: ${restarts.map(show).join(', ')}`);
    console.log(`bare Fastify process: ${bare.map(show).join(', ')}`);
    console.log(
      `restart median ${restart.toFixed(2)} s = ${(restart / yardstick).toFixed(1)}× a bare Fastify start (${yardstick.toFixed(2)} s); goal: under 5 s`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
