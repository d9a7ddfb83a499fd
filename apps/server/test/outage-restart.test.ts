import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instances } from '../src/db/schema/index.js';
import {
  computeOn,
  createReadyCluster,
  freePort,
  instanceProcesses,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { ServerProcess } from './helpers/server-process.js';

/**
 * A control plane that is away longer than the heartbeat timeout costs no cluster: its instances
 * keep computing, and the server started again on the same data grants them a full timeout before
 * judging them, adopts them and serves them as before.
 */
const HEARTBEAT_TIMEOUT_S = 5;
const OUTAGE_MS = 3 * HEARTBEAT_TIMEOUT_S * 1000;
const TIMINGS = { CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: String(HEARTBEAT_TIMEOUT_S) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The end of every local instance's agent output under a server's data directory (for a failure's message). */
function agentLogs(dataDir: string): string {
  const root = path.join(dataDir, 'instances');
  if (!existsSync(root)) return '(no instances)';
  return readdirSync(root)
    .map((id) => {
      const file = path.join(root, id, 'agent.log');
      const text = existsSync(file) ? readFileSync(file, 'utf8') : '(no agent.log)';
      return `--- ${id}\n${text.split('\n').slice(-40).join('\n')}`;
    })
    .join('\n');
}

describe('a control plane outage', () => {
  it('a server stopped longer than the heartbeat timeout and started again keeps every cluster', async () => {
    const database = await openTestDatabase();
    const port = await freePort();
    const first = await startClusterServer(TIMINGS, { database, port });
    let second: Awaited<ReturnType<typeof startClusterServer>> | undefined;
    try {
      const user = await createUser(first);
      const api = first.api.as(user.key);
      const slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
      const details = await createReadyCluster(api, slug, { name: 'outlives-outage', workers: 1 });
      // A batch task that is running when the control plane goes away and ends while it is away.
      const job = await api.post(
        '/api/v2/jobs/compressed',
        gzipSync(
          JSON.stringify({
            workspace: slug,
            user_command: 'sleep 8; echo finished-during-outage',
            run_on_scheduler: true,
            run_on_workers: false,
          }),
        ),
        { headers: { 'content-type': 'application/octet-stream' } },
      );
      const batch = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: `job-${job.body.id}`,
        workers: 0,
        batch_job_ids: [job.body.id],
        tags: { 'cumulus-cluster-type': 'batch' },
        scheduler_options: { idle_timeout: '520 weeks' },
      });
      expect(batch.status).toBe(201);
      await waitFor(
        'the batch task running',
        async () => (await api.get(`/api/v2/jobs/${job.body.id}`)).body.tasks?.[0]?.state === 'running',
        180_000,
      );
      // The interactive cluster's agents and Dask processes (the batch task's come and go).
      const ids = new Set(
        (await database.db.select().from(instances).where(eq(instances.clusterId, details.id))).map(
          (i) => i.backendId,
        ),
      );
      const pidsOf = async (ts: Parameters<typeof instanceProcesses>[0]) =>
        (await instanceProcesses(ts))
          .filter((p) => ids.has(p.backendId))
          .map((p) => p.pid)
          .sort();
      const before = await pidsOf(first);

      // Stopped as an upgrade stops it: nothing of the clusters is touched.
      await first.server.close();
      await sleep(OUTAGE_MS);
      expect(await pidsOf(first)).toEqual(before);

      const restartedAt = Date.now();
      second = await startClusterServer(TIMINGS, { database, port });
      const api2 = second.api.as(user.key);
      // Longer than a heartbeat timeout after the start, with reconcile passes every 0.5 s.
      await sleep(HEARTBEAT_TIMEOUT_S * 1000 + 3000);
      const after = await waitForClusterState(api2, slug, details.id, 'ready', 5_000);
      expect(after.workers.map((w: any) => w.current_state.state)).toEqual(['started']);
      const rows = await database.db.select().from(instances).where(eq(instances.clusterId, details.id));
      expect(rows.map((i) => i.state).sort()).toEqual(['ready', 'ready']);
      for (const row of rows) expect(row.lastHeartbeat!.getTime()).toBeGreaterThan(restartedAt);
      expect(await pidsOf(second)).toEqual(before);
      expect(await computeOn(after)).toMatchObject({ sum: 1_000_000, workers: 1 });

      // What the agents said and heard while the control plane was away reached it once it was back:
      // their own lines (kept meanwhile) and the batch task's result and output.
      const lines = async (clusterId: number, query: Record<string, string | number> = {}) =>
        (await api2.get(`/api/v2/clusters/account/${slug}/id/${clusterId}/better-logs`, { query })).body.map(
          (l: any) => l.message as string,
        );
      // The agents send what they kept once they hear the server again: a moment after its start.
      const said: string[] = await waitFor(
        "the agents' lines from the outage",
        async () => {
          const kept: string[] = await lines(details.id);
          return kept.some((l) => l.includes('the control plane is reachable again')) && kept;
        },
        30_000,
      );
      expect(said.some((l) => l.includes('the control plane is unreachable'))).toBe(true);
      expect(said.some((l) => l.includes('the control plane is reachable again'))).toBe(true);
      const ended = await waitFor('the batch job done', async () => {
        const body = (await api2.get(`/api/v2/jobs/${job.body.id}`)).body;
        return body.finished && body;
      });
      const why = `job: ${ended.reason}; task ${ended.tasks[0]?.state}: ${ended.tasks[0]?.reason}${
        ended.job_state === 'done' ? '' : `\n${agentLogs(first.dataDir)}`
      }`;
      expect(ended, why).toMatchObject({ job_state: 'done', n_tasks_succeeded: 1 });
      expect(ended.tasks[0]).toMatchObject({ state: 'done', exit_code: 0 });
      expect(await lines(batch.body.id, { task_id: ended.tasks[0].id })).toContain('finished-during-outage');

      await api2.delete(`/api/v2/clusters/account/${slug}/id/${details.id}`);
      await waitForClusterState(api2, slug, details.id, 'stopped');
    } finally {
      await second?.close();
      await first.smtp.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
      await database.close();
    }
  }, 240_000);

  it('a server killed with SIGKILL and started again after the heartbeat timeout keeps every cluster', async () => {
    const server = await ServerProcess.create(TIMINGS);
    try {
      await server.seedToken();
      await server.start();
      const cluster = await server.readyCluster({ name: 'outlives-sigkill', workers: 1 });
      const before = (await server.instanceProcesses()).map((p) => p.pid).sort();

      await server.kill('SIGKILL');
      await sleep(OUTAGE_MS);
      await server.start();
      await sleep(HEARTBEAT_TIMEOUT_S * 1000 + 3000);
      const details = await cluster.details();
      expect(details.current_state.state).toBe('ready');
      expect(details.workers.map((w: any) => w.current_state.state)).toEqual(['started']);
      expect((await server.instanceProcesses()).map((p) => p.pid).sort()).toEqual(before);
      expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 1 });

      await cluster.stop();
    } finally {
      await server.cleanup();
    }
  }, 240_000);
});
