import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { throwawayPostgres } from './http/hot-paths.js';
import { printProfile } from './http/profile.js';
import { registerBenchUser, startBenchServer } from './server.js';

const USERS = 50;
/** Instances simulated at each step; the first is the goal's, the rest find where it breaks. */
const STEPS = (process.env.CUMULUS_BENCH_CONTROL_PLANE_STEPS ?? '2000,3000,4000,6000,8000,12000,16000')
  .split(',')
  .map(Number);
/** Processes the simulated agents and users are spread over (none is the server's). */
const AGENT_PROCESSES = Number(process.env.CUMULUS_BENCH_CONTROL_PLANE_AGENT_PROCESSES ?? 2);
const HEARTBEAT_P99_MS = 50;
const DASHBOARD_P99_MS = 100;
/** The simulation's first period, while its instances start one after another. */
const WARM_UP_MS = 5000;

type Kind = 'heartbeat' | 'log batch' | 'worker report' | 'Dashboard list';
type Figures = Partial<Record<Kind, { n: number; p50: number; p99: number; errors: number }>>;
interface Agent {
  token: string;
  backendId: string;
}

/**
 * A control plane under many clusters, on PostgreSQL: simulated agents (bench/http/agents.mjs,
 * processes of their own) heartbeat every 5 s, ship log batches and report their workers, while
 * 50 console users list their Dashboard's clusters every 5 s. For each number of instances in
 * STEPS: heartbeats alone first (the server's CPU and PostgreSQL transactions per heartbeat), then
 * everything (the p99s), until a goal breaks. Beside each it prints where a queue would form: the
 * server's event-loop delay, queries waiting for a pooled connection, and the simulating
 * processes' own event-loop delay and CPU. The server's loops are off: no backend runs these
 * instances, so only the calls are measured. With `profileDir`, the server's CPU profile of each
 * measurement is written there and summarised.
 */
export async function benchControlPlane(seconds: number, profileDir?: string): Promise<void> {
  const postgres = await throwawayPostgres();
  const bench = await startBenchServer({ DATABASE_URL: postgres.databaseUrl! }, 0, false);
  const admin = new pg.Client({ connectionString: postgres.databaseUrl });
  await admin.connect();
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  try {
    const users = [];
    for (let i = 0; i < USERS; i++) {
      const user = await registerBenchUser(bench.server, `console${i}`);
      const { token } = await createToken(bench.server.deps.db, user, { label: 'bench' });
      users.push({ user, token });
    }
    const agents = await seed(
      admin,
      users.map((u) => u.user.id),
      Math.max(...STEPS),
    );
    const { rows: slugs } = await admin.query<{ slug: string; creator: number }>(
      `select w.slug, u.id as creator from users u join accounts w on w.id = u.default_account_id
       where u.id = any($1::int[])`,
      [users.map((u) => u.user.id)],
    );
    const slugOf = new Map(slugs.map((r) => [r.creator, r.slug]));
    const consoles = users.map((u) => ({ token: u.token, slug: slugOf.get(u.user.id)! }));
    const target = {
      base: bench.base,
      pools: [bench.server.deps.db, bench.server.deps.agentDb].map(
        (db) => (db as unknown as { $client: pg.Pool }).$client,
      ) as [pg.Pool, pg.Pool],
      admin,
      database: new URL(postgres.databaseUrl!).pathname.slice(1),
    };
    console.log(
      `\nControl plane under many clusters (PostgreSQL, ${USERS} console users, ${seconds} s per measurement, ` +
        `agents in ${AGENT_PROCESSES} processes of their own)`,
    );
    console.log(
      '  instances | heartbeats alone: p99 ms, CPU ms and transactions each | heartbeat p50/p99 ms | log batch p99 | ' +
        "worker report p99 | Dashboard p50/p99 ms | errors || server loop delay p99 ms, waiting for a connection max/mean (console pool; agents' pool), CPU share | agents loop delay p99 ms, CPU share",
    );
    for (const n of STEPS) {
      const profile = (phase: string) =>
        profileDir ? path.join(profileDir, `control-plane-${n}-${phase}.cpuprofile`) : undefined;
      const alone = await simulate(target, agents.slice(0, n), [], true, seconds, profile('heartbeats'));
      const mixed = await simulate(
        target,
        agents.slice(0, n),
        consoles,
        false,
        seconds,
        profile('everything'),
      );
      const hb = mixed.figures.heartbeat;
      const dash = mixed.figures['Dashboard list'];
      const errors = Object.values(mixed.figures).reduce((sum, f) => sum + f.errors, 0);
      const heartbeats = alone.figures.heartbeat?.n ?? 1;
      const cpuPerHeartbeat = alone.server.cpuMs / heartbeats;
      const transactionsPerHeartbeat = alone.server.transactions / heartbeats;
      const p = (f?: { p99: number }) => (f ? f.p99.toFixed(1) : '-');
      const side = (s: Simulated) =>
        `${s.server.loopDelayP99Ms.toFixed(1)}, ${s.server.poolWaiting.map((w) => `${w.max}/${w.mean.toFixed(1)}`).join('; ')}, ` +
        `${(s.server.cpuMs / (seconds * 1000)).toFixed(2)} | ${s.agentsLoopDelayP99Ms.toFixed(1)}, ${s.agentsCpuShare.toFixed(2)}`;
      console.log(
        `  ${String(n).padStart(9)} | ${`${p(alone.figures.heartbeat)}, ${cpuPerHeartbeat.toFixed(2)}, ${transactionsPerHeartbeat.toFixed(2)}`.padStart(55)} | ` +
          `${`${hb?.p50.toFixed(1)} / ${p(hb)}`.padStart(20)} | ${p(mixed.figures['log batch']).padStart(13)} | ` +
          `${p(mixed.figures['worker report']).padStart(17)} | ${`${dash?.p50.toFixed(1)} / ${p(dash)}`.padStart(20)} | ${String(errors).padStart(6)} || ` +
          `alone: ${side(alone)}; everything: ${side(mixed)}`,
      );
      for (const [phase, file] of [
        ['heartbeats alone', profile('heartbeats')],
        ['everything', profile('everything')],
      ] as const)
        if (file) printProfile(`the server at ${n} instances, ${phase}`, file, 8);
      const broke = [
        (hb?.p99 ?? Number.POSITIVE_INFINITY) >= HEARTBEAT_P99_MS && `heartbeat p99 ≥ ${HEARTBEAT_P99_MS} ms`,
        (dash?.p99 ?? Number.POSITIVE_INFINITY) >= DASHBOARD_P99_MS &&
          `Dashboard list p99 ≥ ${DASHBOARD_P99_MS} ms`,
        errors > 0 && `${errors} failed calls`,
      ].filter(Boolean);
      if (broke.length > 0) {
        console.log(`  broke first at ${n} instances: ${broke.join(', ')}`);
        break;
      }
      if (n === STEPS[STEPS.length - 1]) console.log(`  did not break up to ${n} instances`);
    }
  } finally {
    await admin.end();
    await bench.close();
    await postgres.drop?.();
  }
}

/**
 * `count` running clusters of one worker instance each, spread over the users' workspaces, with
 * their tokens (`cp-token-<i>`, stored hashed as the server stores them): one statement per table.
 */
async function seed(client: pg.Client, userIds: number[], count: number): Promise<Agent[]> {
  await client.query(
    `insert into clusters (account_id, creator_id, name, backend_type, desired_state, state, infra_state,
       desired_workers, idle_timeout_seconds, token_hash, token_box, tls_cert, tls_key_box, created, updated, state_updated)
     select u.default_account_id, u.id, 'sim-' || i, 'in_process', 'ready', 'ready', 'created', 1, 1200,
       encode(sha256(convert_to('cp-token-' || i, 'UTF8')), 'hex'), 'x', 'x', 'x', now(), now(), now()
     from generate_series(1, $2) i
     join users u on u.id = ($1::int[])[1 + i % array_length($1::int[], 1)]`,
    [userIds, count],
  );
  await client.query(
    `insert into cluster_processes (cluster_id, role, name, state)
     select id, 'worker', 'w-' || name, 'started' from clusters where name like 'sim-%'`,
  );
  await client.query(
    `insert into instances (cluster_id, process_id, role, name, backend_type, backend_id, state, desired_state)
     select p.cluster_id, p.id, 'worker', p.name, 'in_process', 'sim-' || substr(c.name, 5), 'ready', 'ready'
     from cluster_processes p join clusters c on c.id = p.cluster_id where c.name like 'sim-%'`,
  );
  await client.query('vacuum analyze');
  return Array.from({ length: count }, (_, k) => ({ token: `cp-token-${k + 1}`, backendId: `sim-${k + 1}` }));
}

/** What the server's side looked like during a measurement (the server runs in this process). */
interface ServerSide {
  cpuMs: number;
  /** The server's event-loop delay, p99 (ms): time a ready answer waited for the loop. */
  loopDelayP99Ms: number;
  /** Queries waiting for a connection of each pool (console's, agents'): the most seen, and the mean. */
  poolWaiting: Array<{ max: number; mean: number }>;
  /** PostgreSQL transactions committed (each statement outside a transaction is one). */
  transactions: number;
}

interface Simulated {
  figures: Figures;
  server: ServerSide;
  /** The simulating processes: their worst event-loop delay p99 and their summed CPU share. */
  agentsLoopDelayP99Ms: number;
  agentsCpuShare: number;
}

/**
 * Runs the simulation (AGENT_PROCESSES processes of its own, never the server's) for `seconds`
 * after a period of warm-up (not measured), sampling the server's side meanwhile; with
 * `profile`, the server's CPU profile of the measured period is written there.
 */
async function simulate(
  target: { base: string; pools: [pg.Pool, pg.Pool]; admin: pg.Client; database: string },
  instances: Agent[],
  users: { token: string; slug: string }[],
  heartbeatsOnly: boolean,
  seconds: number,
  profile?: string,
): Promise<Simulated> {
  const script = fileURLToPath(new URL('./http/agents.mjs', import.meta.url));
  const children = Array.from({ length: AGENT_PROCESSES }, (_, shard) => {
    const mine = instances.filter((_, i) => i % AGENT_PROCESSES === shard);
    const theirUsers = users.filter((_, i) => i % AGENT_PROCESSES === shard);
    // On stdin: thousands of instances' tokens are more than one argument may hold (128 KiB).
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(
      JSON.stringify({
        base: target.base,
        instances: mine,
        users: theirUsers,
        heartbeatsOnly,
        shard: [shard, AGENT_PROCESSES],
      }),
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    const report = new Promise<AgentReport>((resolve) =>
      child.on('exit', () => resolve(JSON.parse(out) as AgentReport)),
    );
    return { child, report };
  });
  await sleep(WARM_UP_MS);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const waiting = target.pools.map(() => ({ max: 0, sum: 0 }));
  let samples = 0;
  const sampler = setInterval(() => {
    target.pools.forEach((pool, k) => {
      const w = waiting[k]!;
      w.max = Math.max(w.max, pool.waitingCount);
      w.sum += pool.waitingCount;
    });
    samples++;
  }, 20);
  const committed = async () =>
    Number(
      (
        await target.admin.query<{ n: string }>(
          'select xact_commit as n from pg_stat_database where datname = $1',
          [target.database],
        )
      ).rows[0]?.n ?? 0,
    );
  const transactionsBefore = await committed();
  const session = profile ? await startProfile() : undefined;
  const cpu = process.cpuUsage();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(cpu);
  if (session && profile) await stopProfile(session, profile);
  clearInterval(sampler);
  delay.disable();
  // Stats are sent to PostgreSQL's collector at the end of a transaction, at most every 0.5 s or so.
  await sleep(1000);
  const transactions = (await committed()) - transactionsBefore;
  for (const { child } of children) child.kill('SIGTERM');
  const reports = await Promise.all(children.map((c) => c.report));
  return {
    figures: merge(reports),
    server: {
      cpuMs: (used.user + used.system) / 1000,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      poolWaiting: waiting.map((w) => ({ max: w.max, mean: w.sum / Math.max(samples, 1) })),
      transactions,
    },
    agentsLoopDelayP99Ms: Math.max(...reports.map((r) => r.loopDelayP99Ms)),
    agentsCpuShare: reports.reduce((sum, r) => sum + r.cpuShare, 0),
  };
}

interface AgentReport {
  times: Partial<Record<Kind, number[]>>;
  errors: Partial<Record<Kind, number>>;
  loopDelayP99Ms: number;
  cpuShare: number;
}

function merge(reports: AgentReport[]): Figures {
  const figures: Figures = {};
  const kinds = new Set(reports.flatMap((r) => Object.keys(r.times) as Kind[]));
  for (const kind of kinds) {
    const xs = reports.flatMap((r) => r.times[kind] ?? []).sort((a, b) => a - b);
    const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
    const errors = reports.reduce((sum, r) => sum + (r.errors[kind] ?? 0), 0);
    figures[kind] = { n: xs.length, p50: at(0.5), p99: at(0.99), errors };
  }
  return figures;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session, file: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(file, JSON.stringify(profile));
}
