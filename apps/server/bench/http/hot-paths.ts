import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createToken } from '../../src/modules/tokens/service.js';
import { createServer } from '../../src/server.js';
import { registerBenchUser } from '../server.js';
import { describeCommit, type Figures, type LoadGenerator, pickLoadGenerator, runLoad } from './load.js';
import { buildServer, type Process, startBare, startCumulus } from './processes.js';

const CONNECTIONS = 50;
const WARM_UP_SECONDS = 2;

export interface HotPathOptions {
  seconds: number;
  /** Also measure on a throwaway database at 127.0.0.1:5432 (DATABASE_URL set does the same). */
  postgres: boolean;
  /** Where to write the server's CPU profiles (node --cpu-prof), if anywhere. */
  profileDir?: string;
}

interface Target {
  name: string;
  databaseUrl?: string;
  drop?: () => Promise<void>;
}

/**
 * `GET /api/health` and `GET /api/v2/user/me` (ApiToken) as a new user runs Cumulus: the compiled
 * server in its own process, the load generator in another, against a bare Fastify process
 * measured in the same run, on embedded PGlite and on PostgreSQL.
 */
export async function benchHotPaths(options: HotPathOptions): Promise<void> {
  const generator = pickLoadGenerator();
  buildServer();
  const targets: Target[] = [{ name: 'embedded PGlite' }];
  if (process.env.DATABASE_URL) targets.push({ name: 'PostgreSQL', databaseUrl: process.env.DATABASE_URL });
  else if (options.postgres) targets.push(await throwawayPostgres());

  console.log(
    `\nHTTP hot paths: ${generator}, ${CONNECTIONS} connections, ${options.seconds} s per route; ` +
      'Cumulus (node dist/main.js), the load generator and a bare Fastify process each run in their own process',
  );
  console.log(`at ${describeCommit()}`);
  console.log(`${''.padEnd(36)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}  × bare`);
  const bare = await startBare();
  const results: Record<string, { bare: Figures; health: Figures; me: Figures }> = {};
  try {
    for (const target of targets) {
      results[target.name] = await measureTarget(generator, bare, target, options);
    }
  } finally {
    await bare.stop();
    for (const target of targets) await target.drop?.();
  }
  printGoals(results);
}

async function measureTarget(
  generator: LoadGenerator,
  bare: Process,
  target: Target,
  options: HotPathOptions,
): Promise<{ bare: Figures; health: Figures; me: Figures }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: target.databaseUrl,
    CUMULUS_DATA_DIR: dataDir,
    CUMULUS_SMTP_URL: undefined,
  };
  try {
    const token = await seedUserWithToken(env);
    const flags = options.profileDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${options.profileDir}`,
          `--cpu-prof-name=${slug(target.name)}.cpuprofile`,
        ]
      : [];
    const cumulus = await startCumulus(env, path.join(dataDir, 'server.log'), flags);
    try {
      const routes: Array<{ label: string; url: string; headers: Record<string, string> }> = [
        { label: 'bare Fastify GET /bare', url: `${bare.base}/bare`, headers: {} },
        { label: 'GET /api/health', url: `${cumulus.base}/api/health`, headers: {} },
        {
          label: 'GET /api/v2/user/me (ApiToken)',
          url: `${cumulus.base}/api/v2/user/me`,
          headers: { authorization: `ApiToken ${token}` },
        },
      ];
      // Warm up every route first, so the JIT and caches count against none of them.
      for (const r of routes)
        await runLoad(generator, { ...r, connections: CONNECTIONS, seconds: WARM_UP_SECONDS });
      const figures: Figures[] = [];
      for (const r of routes) {
        figures.push(await runLoad(generator, { ...r, connections: CONNECTIONS, seconds: options.seconds }));
      }
      console.log(target.name);
      for (const [i, r] of routes.entries()) printRow(r.label, figures[i]!, figures[0]!);
      return { bare: figures[0]!, health: figures[1]!, me: figures[2]! };
    } finally {
      await cumulus.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A verified user and an API token, written before the server process opens the database. */
async function seedUserWithToken(env: Record<string, string | undefined>): Promise<string> {
  const server = await createServer(loadConfig(env as NodeJS.ProcessEnv));
  try {
    const user = await registerBenchUser(server, `bench${randomBytes(4).toString('hex')}`);
    return (await createToken(server.deps.db, user, { label: 'bench' })).token;
  } finally {
    await server.close();
  }
}

async function throwawayPostgres(): Promise<Target> {
  const name = `cumulus_bench_${randomBytes(4).toString('hex')}`;
  const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  return {
    name: 'PostgreSQL',
    databaseUrl: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => run(`drop database if exists ${name} with (force)`),
  };
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z]+/g, '-');

function printRow(label: string, f: Figures, bare: Figures): void {
  console.log(
    `  ${label.padEnd(34)}${f.rps.toFixed(0).padStart(9)}${f.p50.toFixed(2).padStart(9)}` +
      `${f.p99.toFixed(2).padStart(9)}  ${(f.rps / bare.rps).toFixed(3)}` +
      (f.errors > 0 ? `  (${f.errors} errors or non-2xx answers)` : ''),
  );
}

function printGoals(results: Record<string, { bare: Figures; me: Figures }>): void {
  const postgres = results.PostgreSQL;
  const pglite = results['embedded PGlite'];
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  if (postgres) {
    const ratio = postgres.me.rps / postgres.bare.rps;
    console.log(
      `goal: user/me on PostgreSQL ≥ 0.5 × bare with p99 < 10 ms: ${verdict(ratio >= 0.5 && postgres.me.p99 < 10)} ` +
        `(${ratio.toFixed(3)} × bare, p99 ${postgres.me.p99.toFixed(2)} ms)`,
    );
  }
  if (pglite) {
    console.log(
      `goal: user/me on PGlite p99 < 50 ms: ${verdict(pglite.me.p99 < 50)} (p99 ${pglite.me.p99.toFixed(2)} ms)`,
    );
  }
}
