import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gt } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findInstanceProcesses } from '../src/compute/local-processes.js';
import { loadConfig } from '../src/config.js';
import { instances } from '../src/db/schema/index.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { createServer } from '../src/server.js';
import {
  FAST_TIMINGS,
  freePort,
  instanceProcesses,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

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
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-sigkill-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      ...FAST_TIMINGS,
      PORT: String(port),
      HOST: '127.0.0.1',
      CUMULUS_PUBLIC_URL: url,
      CUMULUS_DATA_DIR: dataDir,
      CUMULUS_SECRET: 'sigkill-secret-sigkill-secret-sigkill-0123',
      CUMULUS_WEB_DIST: path.join(dataDir, 'no-console'),
      CUMULUS_LOG_LEVEL: 'warn',
    };
    // With PostgreSQL, a database of its own (created and dropped here).
    const database = process.env.DATABASE_URL ? await openTestDatabase() : undefined;
    if (database?.url) env.DATABASE_URL = database.url;
    let server: ChildProcess | undefined;
    const start = async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: SERVER_DIR,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await waitFor('the server to answer', async () => (await fetch(`${url}/api/health`)).ok, 60_000);
      return child;
    };
    const byServer = async () => {
      const all = await findInstanceProcesses();
      const { readFile } = await import('node:fs/promises');
      const kept = [];
      for (const p of all) {
        const environ = await readFile(`/proc/${p.pid}/environ`, 'latin1').catch(() => '');
        if (environ.includes(`CUMULUS_SERVER=${url}\0`)) kept.push(p);
      }
      return kept;
    };
    try {
      // A user and token, written before the server process owns the data directory.
      const config = loadConfig({ ...env });
      const setup = await createServer(config, database ? { database } : {});
      const user = await createUser({ server: setup } as never);
      const owner = (await findUserBy(setup.deps.db, 'id', user.id))!;
      const { token } = await createToken(setup.deps.db, owner, { label: 'sigkill' });
      await setup.close();
      const headers = { authorization: `ApiToken ${token}`, 'content-type': 'application/json' };
      const call = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`${url}${p}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as any };
      };

      server = await start();
      const slug = (await call('GET', '/api/v2/user/me')).body.default_account.slug;
      const created = await call('POST', `/api/v2/clusters/account/${slug}/`, {
        name: 'survivor',
        workers: 2,
      });
      const id = created.body.id;
      await waitFor('the first instances launched', async () => (await byServer()).length > 0, 60_000, 50);
      server.kill('SIGKILL');
      await new Promise((r) => server!.once('exit', r));

      server = await start();
      const details = await waitFor(
        'the cluster ready after the restart',
        async () => {
          const res = await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`);
          return res.body.current_state?.state === 'ready' && res.body;
        },
        120_000,
      );
      // One agent per instance, every instance of the cluster, nothing else.
      await new Promise((r) => setTimeout(r, 3000));
      const processes = await byServer();
      const leaders = processes.filter((p) => p.pid === p.pgid);
      const backendIds = new Set(processes.map((p) => p.backendId));
      expect(leaders).toHaveLength(backendIds.size);
      const active = [details.scheduler, ...details.workers].filter(
        (p: any) => p.current_state.state === 'started',
      );
      expect(active).toHaveLength(3);
      expect(backendIds.size).toBe(3);

      await call('DELETE', `/api/v2/clusters/account/${slug}/id/${id}`);
      await waitFor(
        'the cluster stopped',
        async () =>
          (await call('GET', `/api/v2/clusters/account/${slug}/id/${id}`)).body.current_state.state ===
          'stopped',
        60_000,
      );
      await waitFor('no process left', async () => (await byServer()).length === 0, 30_000);
    } finally {
      if (server && server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((r) => server!.once('exit', r));
      }
      // Whatever is left of this server's instances goes too.
      for (const p of await byServer()) {
        try {
          process.kill(-p.pgid, 'SIGKILL');
        } catch {}
      }
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
