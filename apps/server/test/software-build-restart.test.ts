import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startClusterServer, waitFor } from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { makeWheel } from './helpers/wheels.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-build-restart-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A package index that holds every request for `slowpkg` until `open()`: a build that asks it
 * stays in pip for as long as the test wants.
 */
async function slowIndex() {
  const wheel = await makeWheel(scratch, 'slowpkg', '1.0', 'slow');
  let opened = false;
  let asked = 0;
  const waiting: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const answer = () => {
      if (req.url?.startsWith('/simple/slowpkg')) {
        res.setHeader('content-type', 'text/html');
        res.end(`<a href="/files/${wheel.fileName}">${wheel.fileName}</a>`);
      } else if (req.url === `/files/${wheel.fileName}`) {
        res.end(wheel.bytes);
      } else {
        res.statusCode = 404;
        res.end();
      }
    };
    if (req.url?.startsWith('/simple/slowpkg')) asked += 1;
    if (opened) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple/`,
    asked: () => asked,
    open() {
      opened = true;
      for (const answer of waiting.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the pip of a build runs (its interpreter is the build's own environment). */
const pipRunning = (buildId: number) =>
  spawnSync('pgrep', ['-f', `\\.build-${buildId}/bin/python -m pip`]).status === 0;

describe('a build whose server stops', () => {
  it('is taken up by the next server on the database, says it was interrupted, and ends built', async () => {
    const index = await slowIndex();
    const database = await openTestDatabase();
    const first = await startClusterServer({}, { database });
    let second: Awaited<ReturnType<typeof startClusterServer>> | undefined;
    try {
      const user = await createUser(first);
      const api = first.api.as(user.key);
      const slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
      const base = `/api/v2/software-environment/account/${slug}`;
      const created = await api.post(base, {
        name: 'slow-env',
        raw_pip: [`--index-url ${index.url}`, 'slowpkg==1.0'],
      });
      expect(created.status).toBe(201);
      const buildId = created.body.latest_spec.latest_build.id;
      await waitFor('pip to ask the index', async () => index.asked() > 0, 60_000);
      expect((await api.get(`${base}/build/${buildId}`)).body.state).toBe('building');
      expect(pipRunning(buildId)).toBe(true);

      // The server's loops stop mid-build (a deploy); its pip goes with them.
      await first.server.stopLoops();
      await waitFor('pip to be gone', async () => !pipRunning(buildId), 10_000);
      expect((await api.get(`${base}/build/${buildId}`)).body.state).toBe('building');

      index.open();
      second = await startClusterServer({}, { database });
      const asSecond = second.api.as(user.key);
      const ended = await waitFor(
        'the build to end on the second server',
        async () => {
          const res = await asSecond.get(`${base}/build/${buildId}`);
          return ['built', 'error'].includes(res.body.state) && res.body;
        },
        120_000,
        300,
      );
      expect(ended).toMatchObject({ state: 'built', reason: '' });
      const logs = (
        await asSecond.get(`${base}/build/logs/${buildId}`, { query: { limit: 1000 } })
      ).body.events.map((e: { message: string }) => e.message);
      expect(logs).toContain('This build was interrupted when its server stopped: starting it again.');
      expect(logs.filter((l: string) => l.startsWith('Creating a virtual environment'))).toHaveLength(2);
      expect((await asSecond.get(`${base}/build/${buildId}/lockfile`)).text).toContain('slowpkg==1.0');
    } finally {
      index.open();
      await second?.close();
      await first.close();
      await index.close();
      await database.close();
    }
  }, 120_000);
});
