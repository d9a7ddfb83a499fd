import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { seedRunningCluster } from './helpers/running-cluster.js';
import { ServerProcess } from './helpers/server-process.js';

/**
 * A 2xx answer means the write is kept: the server killed with SIGKILL the moment the last answer
 * arrives, then started again on the same data (the embedded database's directory, or PostgreSQL
 * with DATABASE_URL), still has every write it acknowledged.
 */
describe('acknowledged writes', () => {
  it('survive a SIGKILL of the server right after they are answered', async () => {
    const server = await ServerProcess.create();
    try {
      await server.seedToken();
      // A running cluster of the token's user whose agent ships log lines (no backend runs it).
      const agent = await server.seed(async (setup) => {
        const [owner] = await setup.deps.db.select({ id: users.id }).from(users).limit(1);
        return seedRunningCluster(setup.deps.db, owner!.id);
      });
      await server.start();
      const me = (await server.call('GET', '/api/v2/user/me')).body;
      const slug: string = me.default_account.slug;
      const workspaceId: number = me.default_account.id;

      // Several kinds of write, answered one after another and some at once.
      const tokens = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.call('POST', '/api/v1/api-tokens/', { label: `kept-${i}` }),
        ),
      );
      const cluster = await server.call('POST', `/api/v2/clusters/account/${slug}/`, {
        name: 'acknowledged',
        workers: 0,
      });
      const flag = await server.call('PUT', '/api/v2/interactions/flag/user-source-dialog', {
        completed: true,
      });
      const workspace = await server.call('PATCH', `/api/v2/users/workspaces/details/${workspaceId}`, {
        credit_limit: 4321,
      });
      // Log batches arriving together share a commit: each is answered only once it is on disk.
      const shipLines = (batch: number) =>
        fetch(`${server.url}/api/v2/cluster_facing/logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            backend_id: agent.backendId,
            lines: [0, 1, 2].map((k) => ({
              timestamp_ms: 1_700_000_000_000 + batch * 10 + k,
              source: 'dask',
              message: `kept ${batch}.${k}`,
            })),
          }),
        }).then((res) => res.status);
      const shipped = await Promise.all(Array.from({ length: 12 }, (_, batch) => shipLines(batch)));
      const lastLines = shipLines(12);
      const last = await server.call('POST', '/api/v1/api-tokens/', { label: 'kept-last' });
      expect(await lastLines).toBe(200);
      // Killed the moment the last answer arrives: nothing the server does after answering is waited for.
      await server.kill('SIGKILL');

      for (const answer of [...tokens, cluster, last]) expect(answer.status).toBe(201);
      expect(shipped).toEqual(shipped.map(() => 200));
      expect(flag.status).toBe(200);
      expect(workspace.status).toBe(200);

      await server.start();
      for (const answer of [...tokens, last]) {
        const res = await fetch(`${server.url}/api/v2/user/me`, {
          headers: { authorization: `ApiToken ${answer.body.token}` },
        });
        expect(res.status).toBe(200);
      }
      const labels = (await server.call('GET', '/api/v1/api-tokens/')).body.results.map((t: any) => t.label);
      expect(labels).toEqual(expect.arrayContaining([...tokens.map((_, i) => `kept-${i}`), 'kept-last']));
      const kept = await server.call('GET', `/api/v2/clusters/account/${slug}/id/${cluster.body.id}`);
      expect(kept.status).toBe(200);
      expect(kept.body.name).toBe('acknowledged');
      expect((await server.call('GET', '/api/v2/interactions/flag/user-source-dialog')).body).toMatchObject({
        completed: true,
      });
      const details = await server.call(
        'GET',
        `/api/v2/users/workspaces/details?workspace_id=${workspaceId}`,
      );
      expect(details.body.credit_limit).toBe(4321);

      const lines = await server.call('GET', `/api/v2/clusters/account/${slug}/id/${agent.id}/better-logs`);
      expect(lines.body.map((l: { message: string }) => l.message).sort()).toEqual(
        Array.from({ length: 13 }, (_, batch) => [0, 1, 2].map((k) => `kept ${batch}.${k}`))
          .flat()
          .sort(),
      );

      await server.call('DELETE', `/api/v2/clusters/account/${slug}/id/${cluster.body.id}`);
      await server.call('DELETE', `/api/v2/clusters/account/${slug}/id/${agent.id}`);
    } finally {
      await server.cleanup();
    }
  }, 180_000);
});
