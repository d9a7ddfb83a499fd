import { rmSync } from 'node:fs';
import { gt } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { instances } from '../src/db/schema/index.js';
import {
  freePort,
  instanceProcesses,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { ServerProcess } from './helpers/server-process.js';

describe('restarts', () => {
  it('a server started on the same database and address adopts running clusters, and replicas do not duplicate them', async () => {
    const database = await openTestDatabase();
    const port = await freePort();
    const first = await startClusterServer({}, { database, port });
    let second: Awaited<ReturnType<typeof startClusterServer>> | undefined;
    let replica: Awaited<ReturnType<typeof startClusterServer>> | undefined;
    try {
      const user = await createUser(first);
      const api = first.api.as(user.key);
      const slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
      const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'adopted', workers: 2 });
      await waitForClusterState(api, slug, created.body.id, 'ready');
      const before = await instanceProcesses(first);
      const rowsBefore = await database.db.select().from(instances);
      expect(new Set(before.map((p) => p.backendId)).size).toBe(3);

      // The first server goes away without stopping anything, as in a crash or a rolling restart.
      await first.server.close();
      const restartedAt = new Date();
      second = await startClusterServer({}, { database, port });
      replica = await startClusterServer({}, { database }); // a second replica on the same database
      const api2 = second.api.as(user.key);
      await waitFor('every instance heartbeating to the new server', async () => {
        const fresh = await database.db
          .select()
          .from(instances)
          .where(gt(instances.lastHeartbeat, restartedAt));
        return fresh.length === 3;
      });
      // Several reconcile passes of both replicas later: the same instances, the same processes.
      await new Promise((r) => setTimeout(r, 4000));
      const details = await waitForClusterState(api2, slug, created.body.id, 'ready');
      expect(details.workers).toHaveLength(2);
      expect((await database.db.select().from(instances)).map((i) => i.id).sort()).toEqual(
        rowsBefore.map((i) => i.id).sort(),
      );
      const after = await instanceProcesses(second);
      expect(after.map((p) => p.pid).sort()).toEqual(before.map((p) => p.pid).sort());

      // The new server manages what the old one started: scale up, then stop everything.
      await api2.post(`/api/v2/workers/account/${slug}/cluster/${created.body.id}/`, { n_workers: 1 });
      await waitFor('three workers', async () => {
        const res = await api2.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
        return res.body.workers.filter((w: any) => w.current_state.state === 'started').length === 3;
      });
      await api2.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
      await waitForClusterState(api2, slug, created.body.id, 'stopped');
      await waitFor('no process left', async () => (await instanceProcesses(second!)).length === 0, 30_000);
    } finally {
      await replica?.close();
      await second?.close();
      await first.smtp.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
      await database.close();
    }
  }, 300_000);

  it('a server killed with SIGKILL while a cluster starts is restarted and the cluster converges, with no orphan', async () => {
    const server = await ServerProcess.create();
    try {
      await server.seedToken();
      await server.start();
      const slug = (await server.call('GET', '/api/v2/user/me')).body.default_account.slug;
      const created = await server.call('POST', `/api/v2/clusters/account/${slug}/`, {
        name: 'survivor',
        workers: 2,
      });
      const id = created.body.id;
      await waitFor(
        'the first instances launched',
        async () => (await server.instanceProcesses()).length > 0,
        60_000,
        50,
      );
      await server.kill('SIGKILL');

      await server.start();
      // What the cluster and its instances last said, for a failure to show (it timed out once at a
      // load of 19, saying nothing more).
      let seen: unknown;
      const details = await waitFor(
        'the cluster ready after the restart',
        async () => {
          const res = await server.call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
          seen = [res.body.current_state, res.body.scheduler, ...(res.body.workers ?? [])].map(
            (x: any) => x && { name: x.name, state: x.current_state ?? x },
          );
          return res.body.current_state?.state === 'ready' && res.body;
        },
        180_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; last seen: ${JSON.stringify(seen)}`);
      });
      // One agent per instance, every instance of the cluster, nothing else.
      await new Promise((r) => setTimeout(r, 3000));
      const processes = await server.instanceProcesses();
      const leaders = processes.filter((p) => p.pid === p.pgid);
      const backendIds = new Set(processes.map((p) => p.backendId));
      expect(leaders).toHaveLength(backendIds.size);
      const active = [details.scheduler, ...details.workers].filter(
        (p: any) => p.current_state.state === 'started',
      );
      expect(active).toHaveLength(3);
      expect(backendIds.size).toBe(3);

      await server.call('DELETE', `/api/v2/clusters/account/${slug}/id/${id}`);
      await waitFor(
        'the cluster stopped',
        async () =>
          (await server.call('GET', `/api/v2/clusters/account/${slug}/id/${id}`)).body.current_state.state ===
          'stopped',
        60_000,
      );
      await waitFor('no process left', async () => (await server.instanceProcesses()).length === 0, 30_000);
    } finally {
      await server.cleanup();
    }
  }, 300_000);
});
