import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { batchJobs, runTasks } from '../src/db/schema/index.js';
import { batchServer, shellLoops } from './batch.js';
import { throwawayPostgres } from './http/hot-paths.js';

/** CUMULUS_BENCH_BATCH_SCALE_TASKS runs fewer (a quicker look; the goal is 10,000). */
const TASKS = Number(process.env.CUMULUS_BENCH_BATCH_SCALE_TASKS ?? 10_000);
const INSTANCES = 8;
const PROBE_EVERY_MS = 50;
const WINDOW_MS = 10_000;
const QUIET_MS = 5_000;
/** CUMULUS_BENCH_BATCH_SCALE_DATABASES=pglite (or postgres) runs on that one only. */
const DATABASES = (process.env.CUMULUS_BENCH_BATCH_SCALE_DATABASES ?? 'pglite,postgres').split(',');

/**
 * A 10,000-task array of no-op tasks (`true`) on 8 worker instances, on the embedded database and
 * on PostgreSQL, while a prober in its own process asks `GET user/me` every 50 ms: tasks per
 * second, the server's CPU per task (its process; PostgreSQL's own CPU is not in it) and user/me's
 * p99, overall and in its worst 10-second window. Beside it, the same commands run by 8 plain
 * shell loops in the same run.
 */
export async function benchBatchScale(): Promise<void> {
  const loops = await shellLoops(TASKS, INSTANCES, 'true');
  console.log(
    `\nBatch at scale: ${TASKS} no-op tasks on ${INSTANCES} worker instances; ${INSTANCES} plain shell loops ` +
      `running the same commands: ${loops.toFixed(2)} s, ${(TASKS / loops).toFixed(0)} tasks/s`,
  );
  if (DATABASES.includes('pglite')) await scaleOn('embedded PGlite (the default)', {});
  if (!DATABASES.includes('postgres')) return;
  const postgres = await throwawayPostgres();
  try {
    await scaleOn('PostgreSQL', { DATABASE_URL: postgres.databaseUrl! });
  } finally {
    await postgres.drop?.();
  }
}

/** The prober (bench/http/prober.mjs) in its own process; `stop()` answers its samples. */
function startProber(url: string, authorization: string) {
  const script = fileURLToPath(new URL('./http/prober.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, url, String(PROBE_EVERY_MS)], {
    env: { ...process.env, PROBE_AUTHORIZATION: authorization },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    async stop(): Promise<[number, number, number][]> {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out) as [number, number, number][];
    },
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function scaleOn(database: string, env: Record<string, string>): Promise<void> {
  const { bench, authorization, call, slug } = await batchServer('batchscale', env);
  const { db } = bench.server.deps;
  const prober = startProber(`${bench.base}/api/v2/user/me`, authorization);
  let samples: [number, number, number][] = [];
  try {
    // What the server spends with no job (the prober's user/me, its loops) in ms a second: a slow
    // run has more of it per task, so it is printed apart.
    const quietFrom = process.cpuUsage();
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const quiet = process.cpuUsage(quietFrom);
    const backgroundMsPerSecond = (quiet.user + quiet.system) / QUIET_MS;
    const submitted = performance.now();
    const { id } = await call<{ id: number }>('POST', '/api/v2/jobs/', {
      workspace: slug,
      user_command: 'true',
      task_array_ntasks: TASKS,
    });
    const submitSeconds = (performance.now() - submitted) / 1000;
    await call('POST', `/api/v2/clusters/account/${slug}/`, {
      name: 'batch-scale',
      workers: INSTANCES,
      batch_job_ids: [id],
    });
    // The job's state straight from the database: its API answer lists every task.
    let cpuAtStart: NodeJS.CpuUsage | undefined;
    let cpuFrom = 0;
    let state = 'pending';
    let reason = '';
    for (;;) {
      [{ state, reason } = { state: 'gone', reason: '' }] = await db
        .select({ state: batchJobs.state, reason: batchJobs.reason })
        .from(batchJobs)
        .where(eq(batchJobs.id, id));
      if (state === 'running' && !cpuAtStart) {
        cpuAtStart = process.cpuUsage();
        cpuFrom = performance.now();
      }
      if (['done', 'failed', 'cancelled', 'gone'].includes(state)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuSeconds = (performance.now() - cpuFrom) / 1000;
    // A failed job is reported, not thrown: how many tasks got through, and why it failed.
    if (state !== 'done') console.log(`\n  on ${database}: the job ${state}: ${reason}`);
    const [span] = await db
      .select({
        first: sql<string>`min(${runTasks.start})::text`,
        last: sql<string>`max(${runTasks.stop})::text`,
        done: sql<number>`(count(*) filter (where ${runTasks.state} = 'done'))::int`,
      })
      .from(runTasks)
      .where(eq(runTasks.batchJobId, id));
    samples = await prober.stop();
    const seconds = (Date.parse(span!.last) - Date.parse(span!.first)) / 1000;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const backgroundMsPerTask = (backgroundMsPerSecond * cpuSeconds) / TASKS;
    report(database, {
      submitSeconds,
      seconds,
      done: span!.done,
      cpuMsPerTask: cpuMs / TASKS,
      backgroundMsPerTask,
      samples,
    });
  } finally {
    if (samples.length === 0) await prober.stop().catch(() => []);
    await bench.close();
  }
}

function report(
  database: string,
  r: {
    submitSeconds: number;
    seconds: number;
    done: number;
    cpuMsPerTask: number;
    backgroundMsPerTask: number;
    samples: [number, number, number][];
  },
): void {
  const latencies = r.samples.map(([, ms]) => ms);
  const failed = r.samples.filter(([, , status]) => status !== 200).length;
  const windows = new Map<number, number[]>();
  for (const [at, ms] of r.samples) {
    const w = Math.floor(at / WINDOW_MS);
    windows.set(w, [...(windows.get(w) ?? []), ms]);
  }
  const windowP99 = [...windows.values()].map((xs) => percentile(xs, 99));
  console.log(`\n  on ${database}`);
  console.log(`    submit (${TASKS} tasks written)              ${r.submitSeconds.toFixed(2)} s`);
  console.log(
    `    first task start -> last task end        ${r.seconds.toFixed(1)} s   ${(TASKS / r.seconds).toFixed(1)} tasks/s   (${r.done} done)`,
  );
  console.log(
    `    instance time per task                   ${((r.seconds * INSTANCES * 1000) / TASKS).toFixed(1)} ms`,
  );
  console.log(
    `    server process CPU per task              ${r.cpuMsPerTask.toFixed(2)} ms   (${(r.cpuMsPerTask - r.backgroundMsPerTask).toFixed(2)} ms without what it spends with no job: ${r.backgroundMsPerTask.toFixed(2)} ms)`,
  );
  console.log(
    `    user/me every ${PROBE_EVERY_MS} ms (own process)       ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms, worst 10-s window p99 ${Math.max(...windowP99).toFixed(1)} ms, ` +
      `${failed} failed`,
  );
}
