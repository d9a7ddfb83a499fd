import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findInstanceProcesses } from '../src/compute/local-processes.js';
import { PYTHON_DIR } from '../src/paths.js';
import { type ChildServer, startChildServer } from './helpers/child-server.js';
import { PYTHON, waitFor } from './helpers/clusters.js';

/**
 * Issue 21's report: `cumulus batch run --ntasks 8 --download out/ task.py` took the whole server
 * down, both times. Downloading the outputs, the client closes each connection as soon as it has
 * read the file, which can come before the server has seen its last write through; Fastify logs
 * that as a stream closed prematurely, with the reply (a circular object) as a field, and the
 * text log formatter threw from a stream callback. Here the real server, in a process of its own
 * with its text log, serves the real client through a real batch job.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-batch-download-'));
let server: ChildServer | undefined;

afterAll(async () => {
  if (server) {
    // Whatever is left of this server's instances goes too.
    for (const p of await processesOf(server.url))
      try {
        process.kill(-p.pgid, 'SIGKILL');
      } catch {}
    await server.stop();
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** The instance processes (agents, Dask) that phone home to `url`. */
async function processesOf(url: string) {
  const kept = [];
  for (const p of await findInstanceProcesses()) {
    const environ = await readFile(`/proc/${p.pid}/environ`, 'latin1').catch(() => '');
    if (environ.includes(`CUMULUS_SERVER=${url}\0`)) kept.push(p);
  }
  return kept;
}

const TASK = `import os
task = os.environ["CUMULUS_BATCH_TASK_ID"]
os.makedirs("output", exist_ok=True)
with open(f"output/result-{task}.txt", "w") as f:
    f.write(f"task {task} line\\n" * 150_000)
print("task", task, "wrote its result")
`;
const expected = (task: number) => `task ${task} line\n`.repeat(150_000);

describe("the user's batch job with downloaded outputs", () => {
  it('brings back the output of every task, and the server keeps serving', async () => {
    server = await startChildServer();
    writeFileSync(path.join(scratch, 'task.py'), TASK);
    const run = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        PYTHON,
        ['-m', 'cumulus', 'batch', 'run', '--ntasks', '8', '--download', 'out/', 'task.py'],
        {
          cwd: scratch,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: scratch,
            PYTHONPATH: PYTHON_DIR,
            // The server shares two cores with other test files: an answer may take longer than 6 s.
            CUMULUS_REQUEST_TIMEOUT: '30',
            CUMULUS_SERVER: server!.url,
            CUMULUS_API_TOKEN: server!.token,
          },
          timeout: 240_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err.code as number) ?? 1) : 0, out: `${stdout}${stderr}` }),
      ),
    );
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Downloaded 8 output file(s) into out/.');
    const out = path.join(scratch, 'out');
    expect(readdirSync(out).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `result-${i}.txt`));
    for (let i = 0; i < 8; i++)
      expect(readFileSync(path.join(out, `result-${i}.txt`), 'utf8')).toBe(expected(i));

    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(server.log()).not.toMatch(/TypeError|circular structure|escaped/);
    // The job's cluster stops on its own once the job is over.
    await waitFor(
      'no instance process left',
      async () => (await processesOf(server!.url)).length === 0,
      60_000,
    );
  }, 300_000);
});
