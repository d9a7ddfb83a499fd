import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Submitting Slurm jobs from the server's own machine (login "local") runs them as the server's
 * user: only its operator turns it on (CUMULUS_SLURM_LOCAL_LOGIN). Elsewhere the list says which
 * logins this server takes, so the console offers only those, and a connect asking it is refused
 * at its field. (slurm-clusters.test.ts connects a "local" login where it is allowed.)
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.close());

describe('the Slurm logins a server takes', () => {
  it('are SSH and slurmrestd where the operator has not allowed this machine, which is refused at login', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const me = await api.get('/api/v2/user/me');
    const slug = me.body.default_account.slug as string;

    const listed = await api.get(`/api/v2/slurm-clusters/${slug}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ items: [], count: 0, logins: ['ssh', 'rest'] });

    const local = await api.post(`/api/v2/slurm-clusters/${slug}`, {
      name: 'here',
      login: 'local',
      partition: 'debug',
      node_cores: 2,
      node_memory_mib: 2048,
    });
    expect(local.status).toBe(400);
    expect(local.body.login).toEqual([
      'This server is not a Slurm login node (CUMULUS_SLURM_LOCAL_LOGIN): connect the login node over SSH.',
    ]);
    expect((await api.get(`/api/v2/slurm-clusters/${slug}`)).body.count).toBe(0);
  });
});
