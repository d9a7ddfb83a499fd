import { spawn } from 'node:child_process';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { freePort, median } from './clusters-start.js';
import { throwawayPostgres } from './http/hot-paths.js';
import { registerBenchUser, startBenchServer } from './server.js';

const TASKS = 200;
const WORK_SECONDS = 0.1;
const WORKERS = 4;
const RUNS = 2;

interface Task {
  start: string | null;
  stop: string | null;
  state: string;
}

/** `tasks` runs of `command` by `loops` shell loops side by side (each `bash -c` like a task is): seconds. */
export function shellLoops(tasks: number, loops: number, command: string): Promise<number> {
  const loop = `for i in $(seq ${Math.ceil(tasks / loops)}); do bash -c '${command}'; done`;
  const script = `${Array.from({ length: loops }, () => `(${loop}) &`).join(' ')} wait`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', script], { stdio: 'ignore' });
    child.on('exit', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`exit ${code}`)),
    );
  });
}

/** The server for a batch benchmark (local backend, fast loops), a user's token and a caller. */
export async function batchServer(username: string, env: Record<string, string>) {
  const port = await freePort();
  const bench = await startBenchServer(
    {
      CUMULUS_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CUMULUS_RECONCILE_INTERVAL_SECONDS: '1',
      CUMULUS_DEFAULT_ENVIRONMENT: 'off',
      CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '2',
      ...env,
    },
    port,
  );
  const user = await registerBenchUser(bench.server, username);
  const { token } = await createToken(bench.server.deps.db, user, { label: 'bench' });
  const authorization = `ApiToken ${token}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${bench.base}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const slug = (await call<{ default_account: { slug: string } }>('GET', '/api/v2/user/me')).default_account
    .slug;
  return { bench, authorization, call, slug };
}

/**
 * Batch tasks through the local backend, on the embedded database and on PostgreSQL: 200 tasks of 0.1 s of work (`sleep`) on 4 worker
 * instances, from the job's submission to its end, against the same 200 commands run by 4 plain
 * shell loops on the same machine in the same run. Overhead per task is what an instance spends
 * per task beyond the work itself: (seconds × instances − work) / tasks.
 */
export async function benchBatch(): Promise<void> {
  await benchBatchOn('embedded PGlite (the default)', {});
  const postgres = await throwawayPostgres();
  try {
    await benchBatchOn('PostgreSQL', { DATABASE_URL: postgres.databaseUrl! });
  } finally {
    await postgres.drop?.();
  }
}

async function benchBatchOn(database: string, env: Record<string, string>): Promise<void> {
  const { bench, call, slug } = await batchServer('batchbench', env);
  const wall: number[] = [];
  const taskPhase: number[] = [];
  const shell: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const { id } = await call<{ id: number }>('POST', '/api/v2/jobs/', {
        workspace: slug,
        user_command: `sleep ${WORK_SECONDS}`,
        task_array_ntasks: TASKS,
      });
      await call('POST', `/api/v2/clusters/account/${slug}/`, {
        name: `batch-bench-${run}`,
        workers: WORKERS,
        batch_job_ids: [id],
      });
      let job: { job_state: string; tasks: Task[]; reason: string };
      for (;;) {
        job = await call('GET', `/api/v2/jobs/${id}`);
        if (['done', 'failed', 'cancelled'].includes(job.job_state)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (job.job_state !== 'done') throw new Error(`batch bench job ${job.job_state}: ${job.reason}`);
      wall.push((performance.now() - started) / 1000);
      const starts = job.tasks.map((t) => Date.parse(t.start!));
      const stops = job.tasks.map((t) => Date.parse(t.stop!));
      taskPhase.push((Math.max(...stops) - Math.min(...starts)) / 1000);
      shell.push(await shellLoops(TASKS, WORKERS, `sleep ${WORK_SECONDS}`));
    }
  } finally {
    await bench.close();
  }
  const work = TASKS * WORK_SECONDS;
  const t = median(taskPhase);
  const s = median(shell);
  const overhead = (seconds: number) => ((seconds * WORKERS - work) / TASKS) * 1000;
  console.log(
    `\nBatch tasks on ${database}: ${TASKS} tasks of ${WORK_SECONDS} s on ${WORKERS} worker instances (median of ${RUNS})`,
  );
  console.log(
    `  submit -> job done (cluster start included)  ${median(wall).toFixed(2)} s   runs: ${wall.map((x) => x.toFixed(2)).join(', ')}`,
  );
  console.log(
    `  first task start -> last task end            ${t.toFixed(2)} s   ${(TASKS / t).toFixed(1)} tasks/s`,
  );
  console.log(
    `  ${WORKERS} plain shell loops, same commands          ${s.toFixed(2)} s   ${(TASKS / s).toFixed(1)} tasks/s`,
  );
  console.log(
    `  overhead per task: Cumulus ${overhead(t).toFixed(0)} ms, shell loop ${overhead(s).toFixed(0)} ms`,
  );
  console.log(`  ratio Cumulus / shell loops (task phase)     ${(t / s).toFixed(2)}`);
}
