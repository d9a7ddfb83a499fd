import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
      python: { path: PYTHON, version, distributed, virtualenv: false },
      install_commands: [
        `${PYTHON} -m venv --system-site-packages ~/.venvs/cumulus`,
        'source ~/.venvs/cumulus/bin/activate',
        'pip install --no-build-isolation http://cumulus.test/api/v2/client/cumulus.tar.gz',
      ].join('\n'),
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
    expect(listing).toMatch(/^cumulus-[\d.]+\/cumulus\/cli\/main\.py$/m);
    expect(listing).not.toMatch(/__pycache__|\.pyc$/m);

    // The commands Get Started shows, run as shown in a fresh home, with the archive on disk instead of its URL.
    const facts = await ts.api.as((await createUser(ts)).key).get('/api/v2/client/install');
    const venv = await runInstallCommands(facts.body, archive, 'plain');
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

  it("gives an environment with the clusters' Dask when CUMULUS_PYTHON is a virtual environment's", async () => {
    // The server's interpreter is a venv (from the system Python, seeing its Dask) with a package
    // of its own: what a venv made from it with --system-site-packages would not see.
    const serverVenv = path.join(scratch, 'server-venv');
    await run(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', serverVenv]);
    const { stdout: purelib } = await run(path.join(serverVenv, 'bin', 'python'), [
      '-c',
      'import sysconfig; print(sysconfig.get_path("purelib"))',
    ]);
    writeFileSync(path.join(purelib.trim(), 'only_in_server_venv.py'), 'WHERE = "server venv"\n');
    const venvServer = await startTestServer({ CUMULUS_PYTHON: path.join(serverVenv, 'bin', 'python') });
    try {
      const facts = await venvServer.api.as((await createUser(venvServer)).key).get('/api/v2/client/install');
      expect(facts.body.python).toMatchObject({
        path: path.join(serverVenv, 'bin', 'python'),
        virtualenv: true,
      });
      const download = await venvServer.app.inject({ method: 'GET', url: '/api/v2/client/cumulus.tar.gz' });
      const archive = path.join(scratch, 'cumulus-venv.tar.gz');
      writeFileSync(archive, download.rawPayload);

      const client = await runInstallCommands(facts.body, archive, 'venv');
      const { stdout } = await run(
        path.join(client, 'bin', 'python'),
        [
          '-c',
          'import distributed, only_in_server_venv, cumulus; print(distributed.__version__, only_in_server_venv.WHERE, cumulus.__file__)',
        ],
        { cwd: scratch },
      );
      const [version, ...rest] = stdout.trim().split(' ');
      expect(version).toBe(facts.body.python.distributed);
      expect(rest.join(' ')).toMatch(new RegExp(`^server venv ${client}/`));
      // The server's environment is left as it was: the client went into the user's own.
      await expect(
        run(path.join(serverVenv, 'bin', 'python'), ['-c', 'import cumulus'], { cwd: scratch }),
      ).rejects.toThrow(/No module named 'cumulus'/);
    } finally {
      await venvServer.close();
    }
  }, 300_000);
});

/**
 * Runs the install commands the server answered, as a user pastes them into bash, in a home of
 * their own; the package from `archive` (no index). Answers the environment they made.
 */
async function runInstallCommands(
  facts: { install_commands: string; package_url: string },
  archive: string,
  name: string,
): Promise<string> {
  const home = path.join(scratch, `home-${name}`);
  mkdirSync(home);
  const script = facts.install_commands.replaceAll(facts.package_url, archive);
  await run('bash', ['-euc', script], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    timeout: 240_000,
  });
  return path.join(home, '.venvs', 'cumulus');
}
