import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { findInstanceProcesses, signalGroups } from '../src/compute/local-processes.js';
import { instanceProcesses, useClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

/**
 * Batch jobs on real clusters: the job is submitted as established clients do (gzip JSON to
 * `jobs/compressed`, then a cluster with `batch_job_ids`), the instances' agents claim and run
 * the tasks, and the job loop ends the job and stops its cluster.
 */
const c = useClusterServer();
const out = mkdtempSync(path.join(tmpdir(), 'cumulus-jobs-'));
// Tasks run as their cluster's uid: they may write here, as into a shared folder of the machine.
chmodSync(out, 0o777);
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function submit(spec: Record<string, unknown>, workers: number) {
  // As aiohttp sends bytes: no Content-Encoding, its default content type.
  const posted = await c.api.post(
    '/api/v2/jobs/compressed',
    gzipSync(JSON.stringify({ workspace: c.slug, ...spec })),
    {
      headers: { 'content-type': 'application/octet-stream' },
    },
  );
  expect(posted.status, JSON.stringify(posted.body)).toBe(200);
  const jobId = posted.body.id as number;
  const cluster = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
    name: `job-${jobId}`,
    workers,
    batch_job_ids: [jobId],
    tags: { 'cumulus-cluster-type': 'batch' },
    scheduler_options: { idle_timeout: '520 weeks' },
  });
  expect(cluster.status, JSON.stringify(cluster.body)).toBe(201);
  return { jobId, clusterId: cluster.body.id as number };
}

async function finished(jobId: number, timeoutMs = 120_000) {
  try {
    return await waitFor(
      `job ${jobId} to finish`,
      async () => {
        const job = (await c.api.get(`/api/v2/jobs/${jobId}`)).body;
        return job.finished ? job : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    // Where it stood: the job, its tasks and its cluster's instances (a stall says which part stalled).
    const job = (await c.api.get(`/api/v2/jobs/${jobId}`)).body;
    const instances = job.cluster_id
      ? await c.ts.server.deps.db.query.instances.findMany({
          where: (i, { eq }) => eq(i.clusterId, job.cluster_id),
        })
      : [];
    const where = {
      job: { state: job.state, reason: job.reason, cluster_id: job.cluster_id },
      tasks: job.tasks?.map((t: any) => [
        t.array_task_id,
        t.state,
        t.retries,
        t.assigned_to?.instance_id,
        t.reason,
      ]),
      instances: instances.map((i) => [i.id, i.role, i.state, i.stateReason, i.releasedAt]),
    };
    throw new Error(`${(err as Error).message}; it stood at ${JSON.stringify(where)}`);
  }
}

async function clusterStopped(clusterId: number) {
  await waitFor('the job cluster to stop', async () => {
    const details = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${clusterId}`);
    return details.body.current_state?.state === 'stopped';
  });
  await waitFor('no process left behind', async () => (await instanceProcesses(c.ts)).length === 0, 30_000);
}

// Real clusters on a busy 2-core machine: each test may take minutes there.
const JOB_TEST_MS = 180_000;

describe('batch jobs', () => {
  it(
    'runs an array of tasks, maps values over them, keeps secrets and output files, and records a failing task',
    async () => {
      const n = 20;
      const dir = path.join(out, 'array');
      const { jobId, clusterId } = await submit(
        {
          user_command:
            `mkdir -p ${dir}; printf '%s %s %s %s' "$CUMULUS_BATCH_TASK_INPUT" "$CUMULUS_BATCH_TASK_COUNT" ` +
            // Coiled's names for the task's id and value, as scripts written for Coiled read them.
            '"coiled:$COILED_BATCH_TASK_ID:$COILED_BATCH_TASK_INPUT" ' +
            `"$([ "$(printf %s "$TOKEN" | rev)" = 2retnuh ] && echo secret-ok)" > ${dir}/$CUMULUS_BATCH_TASK_ID; ` +
            'echo "task $CUMULUS_BATCH_TASK_ID says hello"; [ "$CUMULUS_BATCH_TASK_ID" != 7 ] || exit 3',
          task_array_ntasks: n,
          task_map_env_var: 'CUMULUS_BATCH_TASK_INPUT',
          task_map_env_vals: Array.from({ length: n }, (_, i) => `line-${i}`),
          secret_env_vars: { TOKEN: 'hunter2' },
          env_vars: { PLAIN: 'visible' },
          pipe_to_files: true,
          workdir: '/scratch/batch',
          host_setup: 'echo "host setup ran on $(hostname)"',
        },
        3,
      );
      const job = await finished(jobId);
      expect(job).toMatchObject({
        job_state: 'failed',
        state: 'done (failed)',
        n_tasks: n,
        n_tasks_succeeded: n - 1,
        n_tasks_failed: 1,
        // Which task failed, and how.
        reason: `1 of ${n} tasks failed: task 7 (exit code 3)`,
        env_vars: { PLAIN: 'visible' },
        secret_env_var_names: ['TOKEN'],
      });
      // A finished job says when it started (however fast its tasks ran): with its first task, at the latest.
      expect(job.started).toMatch(/\+00:00$/);
      const firstStart = Math.min(...job.tasks.map((t: any) => Date.parse(t.start)));
      expect(Date.parse(job.started)).toBeLessThanOrEqual(firstStart);
      expect(Date.parse(job.completed)).toBeGreaterThanOrEqual(Date.parse(job.started));
      const failed = job.tasks.find((t: any) => t.array_task_id === 7);
      expect(failed).toMatchObject({ state: 'error', exit_code: 3, reason: 'Exited with code 3' });
      expect(readdirSync(dir).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: n }, (_, i) => String(i)),
      );
      for (let i = 0; i < n; i++)
        expect(readFileSync(path.join(dir, String(i)), 'utf8')).toBe(
          `line-${i} ${n} coiled:${i}:line-${i} secret-ok`,
        );

      const output = await c.api.get(`/api/v2/jobs/${jobId}/tasks/3/output`);
      expect(output.status).toBe(200);
      expect(output.text).toContain('task 3 says hello');

      const task3 = job.tasks.find((t: any) => t.array_task_id === 3);
      const logs = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${clusterId}/better-logs`, {
        query: { task_id: task3.id },
      });
      const lines = logs.body.map((l: any) => l.message);
      expect(lines).toContain('task 3 says hello');
      expect(lines.some((l: string) => l.includes('task 4 says hello'))).toBe(false);
      // Every instance ran the host setup script once, before its first task.
      const setup = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${clusterId}/better-logs`, {
        query: { filter_pattern: 'host setup ran on' },
      });
      expect(new Set(setup.body.map((l: any) => l.instance_id)).size).toBe(setup.body.length);
      expect(setup.body.length).toBeGreaterThanOrEqual(3);

      const everything = JSON.stringify([
        job,
        (await c.api.get('/api/v2/jobs/', { query: { workspace: c.slug } })).body,
        (await c.api.get(`/api/v2/jobs/cluster/${clusterId}`)).body,
        (await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${clusterId}/better-logs`)).body,
      ]);
      expect(everything.includes('hunter2')).toBe(false);
      await clusterStopped(clusterId);
    },
    JOB_TEST_MS,
  );

  it(
    'keeps a %N limit: never more tasks running at once than it says',
    async () => {
      const dir = path.join(out, 'throttle');
      const { jobId, clusterId } = await submit(
        {
          user_command: `mkdir -p ${dir}; s=$(date +%s%N); sleep 0.6; echo "$s $(date +%s%N)" > ${dir}/$CUMULUS_BATCH_TASK_ID`,
          task_array: [0, 3, 6, 9, 12, 20],
          max_concurrent_tasks: 2,
        },
        3,
      );
      const job = await finished(jobId);
      expect(job).toMatchObject({ job_state: 'done', state: 'done (success)', n_tasks_succeeded: 6 });
      expect(job.tasks.map((t: any) => t.array_task_id)).toEqual([0, 3, 6, 9, 12, 20]);
      const spans = readdirSync(dir).map((f) =>
        readFileSync(path.join(dir, f), 'utf8').trim().split(' ').map(Number),
      );
      const most = Math.max(
        ...spans.map(([start]) => spans.filter(([s, e]) => s! <= start! && start! < e!).length),
      );
      expect(most).toBe(2);
      await clusterStopped(clusterId);
    },
    JOB_TEST_MS,
  );

  it(
    'stops what still runs at the job timeout and records it',
    async () => {
      const { jobId, clusterId } = await submit({ user_command: 'sleep 600', job_timeout_seconds: 2 }, 1);
      const job = await finished(jobId);
      expect(job).toMatchObject({ job_state: 'failed', reason: 'Timed out after 2 s' });
      expect(job.tasks[0]).toMatchObject({ state: 'error', reason: 'timeout' });
      await clusterStopped(clusterId);
    },
    JOB_TEST_MS,
  );

  it(
    'cancels a running job: its tasks are stopped and its cluster too',
    async () => {
      const { jobId, clusterId } = await submit({ user_command: 'sleep 600', task_array_ntasks: 2 }, 2);
      await waitFor('both tasks to run', async () => {
        const job = (await c.api.get(`/api/v2/jobs/${jobId}`)).body;
        return job.tasks.every((t: any) => t.state === 'running');
      });
      const cancelled = await c.api.delete(`/api/v2/jobs/${jobId}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        job_state: 'cancelled',
        state: 'done (cancelled)',
        finished: true,
      });
      expect(cancelled.body.reason).toMatch(/^Cancelled by /);
      expect(cancelled.body.tasks.every((t: any) => t.state === 'error')).toBe(true);
      await clusterStopped(clusterId);
      expect((await c.api.delete(`/api/v2/jobs/${jobId}`)).status).toBe(200);
    },
    JOB_TEST_MS,
  );

  it(
    'runs the task of an instance that died again on another one',
    async () => {
      const dir = path.join(out, 'retry');
      const { jobId, clusterId } = await submit(
        {
          user_command:
            `mkdir -p ${dir}; if [ ! -e ${dir}/tried-$CUMULUS_BATCH_TASK_ID ]; then ` +
            `touch ${dir}/tried-$CUMULUS_BATCH_TASK_ID; sleep 600; fi; echo ok > ${dir}/$CUMULUS_BATCH_TASK_ID`,
        },
        1,
      );
      // Its command has started (a task is `running` from its claim on, before the command runs).
      const running = await waitFor('the task to run', async () => {
        const job = (await c.api.get(`/api/v2/jobs/${jobId}`)).body;
        return job.tasks[0].state === 'running' && existsSync(path.join(dir, 'tried-0'))
          ? job.tasks[0]
          : undefined;
      });
      const [instance] = await c.ts.server.deps.db.query.instances.findMany({
        where: (i, { eq }) => eq(i.id, running.assigned_to.instance_id),
      });
      signalGroups(await findInstanceProcesses(instance!.backendId), 'SIGKILL');
      const job = await finished(jobId);
      expect(job).toMatchObject({ job_state: 'done', n_tasks_succeeded: 1 });
      expect(job.tasks[0].retries).toBe(1);
      expect(job.tasks[0].assigned_to.instance_id).not.toBe(running.assigned_to.instance_id);
      expect(readFileSync(path.join(dir, '0'), 'utf8')).toBe('ok\n');
      await clusterStopped(clusterId);
    },
    JOB_TEST_MS,
  );

  it(
    'refuses a bad spec naming the field, a spec too large, and stores nothing',
    async () => {
      const bad = await c.api.post('/api/v2/jobs/', {
        workspace: c.slug,
        user_command: 'echo',
        task_array_ntasks: 3,
        task_map_env_var: 'X',
        task_map_env_vals: ['a'],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.task_map_env_vals[0]).toBe('Give one value per task: 3 tasks, 1 value.');
      // Tasks in a container need a cluster of a container image: another is refused, naming why.
      const contained = await c.api.post('/api/v2/jobs/', {
        workspace: c.slug,
        user_command: 'echo',
        run_in_container: true,
      });
      expect(contained.status).toBe(200);
      const uncontained = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
        name: 'not-in-a-container',
        workers: 0,
        batch_job_ids: [contained.body.id],
      });
      expect(uncontained.status).toBe(400);
      expect(uncontained.body.env_name[0]).toContain(
        `Batch job ${contained.body.id} runs its tasks in a container (run_in_container): give its cluster the environment of a container image`,
      );
      expect((await c.api.delete(`/api/v2/jobs/${contained.body.id}`)).status).toBe(200);
      const gz = await c.api.post('/api/v2/jobs/compressed', gzipSync(JSON.stringify({ user_command: '' })), {
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(gz.status).toBe(400);
      expect(gz.body.user_command).toBeDefined();
      const huge = await c.api.post('/api/v2/jobs/compressed', Buffer.alloc(2.5 * 1024 * 1024, 1), {
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(huge.status).toBe(413);
      expect(huge.body.detail).toMatch(/at most 2\.4 MB/);
      const before = (await c.api.get('/api/v2/jobs/')).body.count;
      // Staff list every workspace's jobs; another user sees none of these.
      const staff = await createUser(c.ts, { staff: true });
      expect((await c.ts.api.as(staff.key).get('/api/v2/jobs/')).body.count).toBe(before);
      const stranger = await createUser(c.ts);
      expect((await c.ts.api.as(stranger.key).get('/api/v2/jobs/')).body.count).toBe(0);
      expect(
        (
          await c.api.post('/api/v2/jobs/', {
            workspace: c.slug,
            user_command: 'echo',
            env_vars: { 'bad name': 'x' },
          })
        ).status,
      ).toBe(400);
      expect((await c.api.get('/api/v2/jobs/')).body.count).toBe(before);
    },
    JOB_TEST_MS,
  );

  it('runs a single-job script on a cluster it sizes itself', async () => {
    const created = await c.api.post('/api/v2/jobs/single-job-script/', {
      workspace: c.slug,
      user_command: 'echo "$CUMULUS_BATCH_JOB_ID:$CUMULUS_BATCH_TASK_ID on $CUMULUS_BATCH_SCHEDULER_ADDRESS"',
      task_array_ntasks: 3,
      cluster: { max_workers: 2 },
    });
    expect(created.status).toBe(200);
    const job = await finished(created.body.id);
    expect(job).toMatchObject({ job_state: 'done', cluster_id: created.body.cluster_id });
    const details = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${created.body.cluster_id}`);
    expect(details.body.workers.length).toBe(2);
    // Output reaches the logs within a second of being written.
    const line = await waitFor('the task output in the logs', async () => {
      const logs = await c.api.get(
        `/api/v2/clusters/account/${c.slug}/id/${created.body.cluster_id}/better-logs`,
        {
          query: { filter_pattern: `${created.body.id}:1 on ` },
        },
      );
      return logs.body[0]?.message;
    });
    expect(line).toMatch(new RegExp(`^${created.body.id}:1 on tls://127\\.0\\.0\\.1:\\d+$`));
    await clusterStopped(created.body.cluster_id);
  });

  it('makes a single-job script and its cluster together, or neither', async () => {
    const before = (await c.api.get('/api/v2/jobs/')).body.count;
    // The cluster cannot be made (no such software environment): no job is left waiting for one.
    const refused = await c.api.post('/api/v2/jobs/single-job-script/', {
      workspace: c.slug,
      user_command: 'echo never',
      cluster: { env_name: 'no-such-environment' },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toHaveProperty('env_name');
    expect((await c.api.get('/api/v2/jobs/')).body.count).toBe(before);
  });
});
