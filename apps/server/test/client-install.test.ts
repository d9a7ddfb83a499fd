import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const run = promisify(execFile);
let ts: TestServer;
let scratch: string;
beforeAll(async () => {
  ts = await startTestServer();
  scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-client-'));
}, 60_000);
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await ts.close();
});

describe('the Python client of this server (Get Started, install step)', () => {
  it('says where the server is, where its client is and which interpreter clusters run', async () => {
    const user = await createUser(ts);
    const facts = await ts.api.as(user.key).get('/api/v2/client/install');
    const { stdout } = await run(PYTHON, [
      '-c',
      'import sys, distributed; print("%d.%d.%d" % sys.version_info[:3], distributed.__version__)',
    ]);
    const [version, distributed] = stdout.trim().split(' ');
    expect(facts.body).toEqual({
      server_url: 'http://cumulus.test',
      package_url: 'http://cumulus.test/api/v2/client/cumulus.tar.gz',
      client_version: expect.stringMatching(/^\d+\.\d+/),
      python: { path: PYTHON, version, distributed },
    });
    expect((await ts.api.get('/api/v2/client/install')).status).toBe(401);
  });

  it('serves an sdist pip installs into an environment made from that interpreter', async () => {
    const download = await ts.app.inject({ method: 'GET', url: '/api/v2/client/cumulus.tar.gz' });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(/filename="cumulus-[\d.]+\.tar\.gz"/);
    const archive = path.join(scratch, 'cumulus.tar.gz');
    writeFileSync(archive, download.rawPayload);
    const { stdout: listing } = await run('tar', ['-tzf', archive]);
    expect(listing).toMatch(/^cumulus-[\d.]+\/pyproject\.toml$/m);
    expect(listing).toMatch(/^cumulus-[\d.]+\/cumulus\/cli\.py$/m);
    expect(listing).not.toMatch(/__pycache__|\.pyc$/m);

    // The commands Get Started shows, with the archive on disk instead of its URL.
    const venv = path.join(scratch, 'venv');
    await run(PYTHON, ['-m', 'venv', '--system-site-packages', venv]);
    await run(path.join(venv, 'bin', 'pip'), ['install', '--no-build-isolation', '--no-index', archive], {
      timeout: 240_000,
    });
    const { stdout } = await run(path.join(venv, 'bin', 'cumulus'), ['--help']);
    expect(stdout).toContain('login');
    const where = await run(
      path.join(venv, 'bin', 'python'),
      ['-c', 'import cumulus; print(cumulus.__file__)'],
      {
        cwd: scratch,
      },
    );
    expect(where.stdout).toContain(venv);
  }, 300_000);
});
