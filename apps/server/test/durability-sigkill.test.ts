import { describe, expect, it } from 'vitest';
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
      const last = await server.call('POST', '/api/v1/api-tokens/', { label: 'kept-last' });
      // Killed the moment the last answer arrives: nothing the server does after answering is waited for.
      await server.kill('SIGKILL');

      for (const answer of [...tokens, cluster, last]) expect(answer.status).toBe(201);
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

      await server.call('DELETE', `/api/v2/clusters/account/${slug}/id/${cluster.body.id}`);
    } finally {
      await server.cleanup();
    }
  }, 180_000);
});
