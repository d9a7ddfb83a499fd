import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createToken } from '../../src/domains/identity/tokens/service.js';
import { createServer } from '../../src/server.js';
import { registerBenchUser } from '../server.js';
import { describeCommit, type Figures, type LoadGenerator, pickLoadGenerator, runLoad } from './load.js';
import { buildServer, type Process, startBare, startCumulus } from './processes.js';
import { printProfile } from './profile.js';

const CONNECTIONS = 50;
const WARM_UP_SECONDS = 2;

export interface HotPathOptions {
  seconds: number;
  /** Also measure on a throwaway database at 127.0.0.1:5432 (DATABASE_URL set does the same). */
  postgres: boolean;
  /** Where to write the server's CPU profiles (node --cpu-prof), if anywhere. */
  profileDir?: string;
}

interface Route {
  label: string;
  path: string;
  headers: Record<string, string>;
}

interface Target {
  name: string;
  databaseUrl?: string;
  drop?: () => Promise<void>;
}

/** A route's figures and those of the bare route measured just before it. */
interface Paired {
  route: Figures;
  bare: Figures;
}

/**
 * `GET /api/health` and `GET /api/v2/user/me` (ApiToken) as a new user runs Cumulus: the compiled
 * server in its own process, the load generator in another, against a bare Fastify process, on
 * embedded PGlite and on PostgreSQL. The bare route is measured right before each route, so the
 * pair meets the same load from whatever else runs on the machine.
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
  console.log(
    `${''.padEnd(34)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}` +
      `${'CPU µs/req'.padStart(11)} | bare:${'req/s'.padStart(7)}${'p99 ms'.padStart(8)}` +
      `${'CPU µs/req'.padStart(11)} | × bare`,
  );
  const bare = await startBare();
  const results: Record<string, Record<string, Paired>> = {};
  try {
    await runLoad(generator, {
      url: `${bare.base}/bare`,
      connections: CONNECTIONS,
      seconds: WARM_UP_SECONDS,
    });
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
): Promise<Record<string, Paired>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: target.databaseUrl,
    CUMULUS_DATA_DIR: dataDir,
    CUMULUS_SMTP_URL: undefined,
  };
  try {
    const token = await seedUserWithToken(env);
    const routes: Route[] = [
      { label: 'GET /api/health', path: '/api/health', headers: {} },
      {
        label: 'GET /api/v2/user/me (ApiToken)',
        path: '/api/v2/user/me',
        headers: { authorization: `ApiToken ${token}` },
      },
    ];
    console.log(target.name);
    const results: Record<string, Paired> = {};
    const profiles: Array<{ label: string; file: string }> = [];
    // One server process per route, so a CPU profile holds that route's work alone.
    for (const route of routes) {
      const name = `${slug(target.name)}-${slug(route.path)}.cpuprofile`;
      const flags = options.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`, `--cpu-prof-name=${name}`]
        : [];
      const cumulus = await startCumulus(env, path.join(dataDir, 'server.log'), flags);
      let paired: Paired;
      try {
        const load = {
          url: `${cumulus.base}${route.path}`,
          headers: route.headers,
          connections: CONNECTIONS,
        };
        // Warm up first, so the JIT and caches count against nothing measured.
        await runLoad(generator, { ...load, seconds: WARM_UP_SECONDS });
        const measured = { connections: CONNECTIONS, seconds: options.seconds };
        const bareFigures = await runLoad(generator, { ...measured, url: `${bare.base}/bare` }, bare);
        paired = { bare: bareFigures, route: await runLoad(generator, { ...load, ...measured }, cumulus) };
      } finally {
        await cumulus.stop();
      }
      results[route.path] = paired;
      printRow(route.label, paired);
      if (options.profileDir)
        profiles.push({ label: route.label, file: path.join(options.profileDir, name) });
    }
    for (const profile of profiles) printProfile(profile.label, profile.file);
    return results;
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

export async function throwawayPostgres(): Promise<Target> {
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

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function printRow(label: string, { route: f, bare }: Paired): void {
  const cpu = (x: Figures) => (x.cpuPerRequest?.toFixed(0) ?? '-').padStart(11);
  console.log(
    `  ${label.padEnd(32)}${f.rps.toFixed(0).padStart(8)}${f.p50.toFixed(2).padStart(8)}` +
      `${f.p99.toFixed(2).padStart(8)}${cpu(f)} |      ${bare.rps.toFixed(0).padStart(7)}` +
      `${bare.p99.toFixed(2).padStart(8)}${cpu(bare)} | ${(f.rps / bare.rps).toFixed(3)}` +
      (f.errors > 0 ? `  (${f.errors} errors or non-2xx answers)` : ''),
  );
}

function printGoals(results: Record<string, Record<string, Paired>>): void {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const me = results.PostgreSQL?.['/api/v2/user/me'];
  if (me) {
    const ratio = me.route.rps / me.bare.rps;
    console.log(
      `goal: user/me on PostgreSQL ≥ 0.5 × bare with p99 < 10 ms: ${verdict(ratio >= 0.5 && me.route.p99 < 10)} ` +
        `(${ratio.toFixed(3)} × bare, p99 ${me.route.p99.toFixed(2)} ms; bare p99 ${me.bare.p99.toFixed(2)} ms)`,
    );
  }
  const pglite = results['embedded PGlite'];
  if (pglite) {
    const worst = Math.max(...Object.values(pglite).map((p) => p.route.p99));
    console.log(
      `goal: health and user/me on PGlite p99 < 50 ms: ${verdict(worst < 50)} (worst p99 ${worst.toFixed(2)} ms)`,
    );
  }
}
