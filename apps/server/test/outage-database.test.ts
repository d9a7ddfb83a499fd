import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { computeOn, waitFor } from './helpers/clusters.js';
import { PrivatePostgres, postgresBinaries } from './helpers/private-postgres.js';
import { ServerProcess } from './helpers/server-process.js';

/**
 * PostgreSQL restarted under a serving server: requests fail cleanly while it is away (a 503 in
 * JSON, the server keeps running), the pool reconnects, the loops go on, and the clusters that
 * could not heartbeat meanwhile are not judged for it.
 */
const bin = postgresBinaries();
if (!bin) console.warn('outage-database.test.ts skipped: no PostgreSQL binaries under /usr/lib/postgresql');

const HEARTBEAT_TIMEOUT_S = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The agents (not their Dask processes) of the server's instances. */
async function agentPids(server: ServerProcess): Promise<number[]> {
  const pids: number[] = [];
  for (const p of await server.instanceProcesses()) {
    const cmdline = await readFile(`/proc/${p.pid}/cmdline`, 'latin1').catch(() => '');
    if (cmdline.includes('cumulus.agent')) pids.push(p.pid);
  }
  return pids;
}

describe('a database outage', () => {
  it.skipIf(!bin)(
    'fails requests cleanly, then the server, its loops and its clusters go on',
    async () => {
      const postgres = await PrivatePostgres.create(bin!);
      await postgres.start();
      const server = await ServerProcess.create(
        { CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: String(HEARTBEAT_TIMEOUT_S) },
        { databaseUrl: postgres.url },
      );
      try {
        await server.seedToken();
        await server.start();
        const cluster = await server.readyCluster({ name: 'outlives-db-outage', workers: 1 });

        await postgres.stop();
        const outageEnds = Date.now() + 3 * HEARTBEAT_TIMEOUT_S * 1000;
        while (Date.now() < outageEnds) {
          for (const [method, p, body] of [
            ['GET', '/api/v2/user/me'],
            ['GET', `/api/v2/clusters/account/${cluster.slug}/id/${cluster.id}`],
            ['POST', '/api/v1/api-tokens/', { label: 'during the outage' }],
          ] as const) {
            const answer = await server.call(method, p, body);
            expect(answer.status, `${method} ${p}`).toBe(503);
            expect(answer.body).toEqual({
              detail: 'The database is unavailable; try again shortly.',
              code: 'DATABASE_UNAVAILABLE',
            });
          }
          expect(server.running).toBe(true);
          await sleep(1000);
        }

        // The agents, backing off, are heard again only some time after the database is back (Dask
        // itself keeps running): the reconciler judges them first.
        const agents = await agentPids(server);
        for (const pid of agents) process.kill(pid, 'SIGSTOP');
        await postgres.start();
        await waitFor(
          'the server answering again',
          async () => (await server.call('GET', '/api/v2/user/me')).status === 200,
          30_000,
        );
        await sleep(2000);
        for (const pid of agents) process.kill(pid, 'SIGCONT');
        // Longer than a heartbeat timeout since the database came back: the instances could not be
        // heard while it was away, which is not counted against them.
        await sleep(HEARTBEAT_TIMEOUT_S * 1000 + 3000);
        const after = await cluster.details();
        expect(after.current_state.state).toBe('ready');
        expect(after.workers.map((w: any) => w.current_state.state)).toEqual(['started']);

        // The cluster loop acts again: one more worker, then a computation on both.
        const added = await server.call(
          'POST',
          `/api/v2/workers/account/${cluster.slug}/cluster/${cluster.id}/`,
          {
            n_workers: 1,
          },
        );
        expect(added.status).toBeLessThan(300);
        const scaled = await waitFor(
          'two workers started',
          async () => {
            const d = await cluster.details();
            return d.workers.filter((w: any) => w.current_state.state === 'started').length === 2 && d;
          },
          120_000,
        );
        expect(await computeOn(scaled)).toMatchObject({ sum: 1_000_000, workers: 2 });

        await cluster.stop();
        expect(server.running).toBe(true);
      } finally {
        for (const pid of await agentPids(server).catch(() => [])) process.kill(pid, 'SIGCONT');
        await server.cleanup();
        await postgres.destroy();
      }
    },
    300_000,
  );
});
