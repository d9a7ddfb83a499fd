import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONNECT_AND_SUM, runPython, waitFor } from './helpers/clusters.js';
import { PrivatePostgres, postgresBinaries } from './helpers/private-postgres.js';
import { ServerProcess } from './helpers/server-process.js';

/**
 * PostgreSQL restarted under a serving server: requests fail cleanly while it is away (a 503 in
 * JSON, the server keeps running), the pool reconnects, the loops go on, and the clusters that
 * could not heartbeat meanwhile are not judged for it.
 */
const bin = postgresBinaries();
if (!bin) console.warn('outage-database.test.ts skipped: no PostgreSQL binaries under /usr/lib/postgresql');

const HEARTBEAT_TIMEOUT_S = 4;
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
        const slug = (await server.call('GET', '/api/v2/user/me')).body.default_account.slug;
        const clusterPath = (id: number) => `/api/v2/clusters/account/${slug}/id/${id}`;
        const created = await server.call('POST', `/api/v2/clusters/account/${slug}/`, {
          name: 'outlives-db-outage',
          workers: 1,
        });
        const details = async () => (await server.call('GET', clusterPath(created.body.id))).body;
        await waitFor(
          'the cluster ready',
          async () => (await details()).current_state?.state === 'ready',
          120_000,
        );

        await postgres.stop();
        const outageEnds = Date.now() + 3 * HEARTBEAT_TIMEOUT_S * 1000;
        while (Date.now() < outageEnds) {
          for (const [method, p, body] of [
            ['GET', '/api/v2/user/me'],
            ['GET', clusterPath(created.body.id)],
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
        const after = await details();
        expect(after.current_state.state).toBe('ready');
        expect(after.workers.map((w: any) => w.current_state.state)).toEqual(['started']);

        // The cluster loop acts again: one more worker, then a computation on both.
        const added = await server.call(
          'POST',
          `/api/v2/workers/account/${slug}/cluster/${created.body.id}/`,
          {
            n_workers: 1,
          },
        );
        expect(added.status).toBeLessThan(300);
        const scaled = await waitFor(
          'two workers started',
          async () => {
            const d = await details();
            return d.workers.filter((w: any) => w.current_state.state === 'started').length === 2 && d;
          },
          120_000,
        );
        const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-db-outage-'));
        try {
          writeFileSync(path.join(dir, 'details.json'), JSON.stringify(scaled));
          const result = JSON.parse(await runPython(CONNECT_AND_SUM, [path.join(dir, 'details.json')]));
          expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }

        await server.call('DELETE', clusterPath(created.body.id));
        await waitFor(
          'the cluster stopped',
          async () => (await details()).current_state.state === 'stopped',
          60_000,
        );
        await waitFor('no process left', async () => (await server.instanceProcesses()).length === 0, 30_000);
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
