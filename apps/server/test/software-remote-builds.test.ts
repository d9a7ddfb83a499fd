import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleBackend } from '../src/compute/backend.js';
import { createLocalBackend } from '../src/compute/local.js';
import { createLocalBuilder } from '../src/compute/local-builder.js';
import { createRemoteBuilder, type RemoteBuildJob } from '../src/compute/remote-builder.js';
import { PYTHON_DIR } from '../src/paths.js';
import type { Api } from './helpers/api.js';
import { freePort, PYTHON, startClusterServer, testSandbox, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import type { TestServer } from './helpers/server.js';
import { makeWheel, uploadWheel } from './helpers/wheels.js';

/**
 * Builds on another machine: the remote builder starts the real build agent
 * (`python -m cumulus.agent.build`) with the build's token, which fetches the spec and wheels,
 * reports its log and state, and uploads the environment through the cluster-facing calls.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-remote-builds-'));
const machines = new Map<number, ChildProcess>();
const jobs: RemoteBuildJob[] = [];
let ts: TestServer & { url: string };
let api: Api;
let slug: string;

beforeAll(async () => {
  const port = await freePort();
  const local = createLocalBuilder({ python: PYTHON, dataDir: scratch, env: process.env });
  const builder = createRemoteBuilder({
    backend: 'test machines',
    kinds: ['pip'],
    pollMs: 100,
    interpreter: local.interpreter,
    pythonOf: (location) => location,
    async launch(job) {
      jobs.push(job);
      const machine = spawn(PYTHON, ['-m', 'cumulus.agent.build'], {
        cwd: PYTHON_DIR,
        env: {
          ...process.env,
          PYTHONPATH: PYTHON_DIR,
          // The server shares two cores with other test files: an answer may take longer than 6 s.
          CUMULUS_REQUEST_TIMEOUT: '30',
          CUMULUS_SERVER: job.serverUrl,
          CUMULUS_BUILD_TOKEN: job.token,
          CUMULUS_BUILD_ROOT: path.join(scratch, `machine-${job.buildId}`),
        },
        stdio: 'ignore',
      });
      machines.set(job.buildId, machine);
    },
    async stop(job) {
      machines.get(job.buildId)?.kill('SIGKILL');
    },
  });
  const backend = createLocalBackend({
    python: PYTHON,
    dataDir: scratch,
    baseEnv: {},
    stopGraceMs: 1000,
    builder,
    sandbox: testSandbox(scratch),
  });
  ts = await startClusterServer({}, { port, backends: singleBackend(backend) });
  const user = await createUser(ts);
  api = ts.api.as(user.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
}, 120_000);

afterAll(async () => {
  for (const machine of machines.values()) machine.kill('SIGKILL');
  await ts?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const base = () => `/api/v2/software-environment/account/${slug}`;
const facing = '/api/v2/cluster_facing/software-environment';

async function buildOf(body: Record<string, unknown>) {
  const created = await api.post(base(), body);
  expect(created.status).toBe(201);
  const buildId = created.body.latest_spec.latest_build.id as number;
  return waitFor(
    `build ${buildId}`,
    async () => {
      const res = await api.get(`${base()}/build/${buildId}`);
      return ['built', 'error'].includes(res.body.state) && res.body;
    },
    180_000,
    300,
  );
}

const logsOf = async (buildId: number): Promise<string[]> =>
  (await api.get(`${base()}/build/logs/${buildId}`, { query: { limit: 1000 } })).body.events.map(
    (e: { message: string }) => e.message,
  );

describe('builds on a build machine', () => {
  it('install the spec and its uploaded wheel there, stream the log, upload the environment and record the lockfile', async () => {
    const wheel = await makeWheel(scratch, 'remote_pkg', '1.2.3', 'remote');
    const fileId = await uploadWheel(api, slug, wheel);

    const build = await buildOf({
      name: 'remote-env',
      packages: [{ name: 'remote_pkg', specifier: '==1.2.3', source: 'pip', file: fileId }],
    });
    expect(build.reason).toBe('');
    expect(build.state).toBe('built');
    const logs = await logsOf(build.id);
    expect(logs).toContain('Starting a build machine on the test machines backend');
    expect(logs).toContain(`Downloading ${wheel.fileName}`);
    expect(logs.some((l) => /Successfully installed remote[-_]pkg-1\.2\.3/.test(l))).toBe(true);
    expect(logs.some((l) => l.startsWith('Uploading the environment'))).toBe(true);

    const lockfile = await api.get(`${base()}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(/^# cumulus lockfile: Python 3\./);
    expect(lockfile.text).toContain('remote-pkg==1.2.3');

    // The archive it uploaded is the environment: the wheel's module is in it.
    const job = jobs.find((j) => j.buildId === build.id)!;
    const archive = await fetch(`${ts.url}${facing}/build/${build.id}/download`, {
      headers: { authorization: `Bearer ${job.token}` },
    });
    expect(archive.status).toBe(200);
    const file = path.join(scratch, 'downloaded.tar.gz');
    writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' });
    expect(listing).toMatch(/site-packages\/remote_pkg/);
    expect(listing).toContain('./bin/python');

    // A built build takes no more reports, and its token reaches no other build.
    const late = await fetch(`${ts.url}${facing}/build/${build.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'error', reason: 'too late' }),
    });
    expect(late.status).toBe(409);
    const other = await fetch(`${ts.url}${facing}/build/${build.id + 1}/spec`, {
      headers: { authorization: `Bearer ${job.token}` },
    });
    expect(other.status).toBe(404);
  }, 240_000);

  it("end in error with pip's message from the machine, and refuse strangers and forged upload links", async () => {
    const build = await buildOf({ name: 'remote-broken', raw_pip: ['no-such-package-cumulus-test==9.9'] });
    expect(build.state).toBe('error');
    expect(build.reason).toMatch(/^pip exited with code 1: .*no-such-package-cumulus-test/);
    expect(await logsOf(build.id)).toContain(`The build failed: ${build.reason}`);

    const job = jobs.find((j) => j.buildId === build.id)!;
    // A failed build's token is worth nothing.
    const spec = await fetch(`${ts.url}${facing}/spec`, {
      headers: { authorization: `Bearer ${job.token}` },
    });
    expect(spec.status).toBe(401);
    const stranger = await fetch(`${ts.url}${facing}/spec`, {
      headers: { authorization: 'Bearer cbt_nope' },
    });
    expect(stranger.status).toBe(401);
    const forged = await fetch(
      `${ts.url}${facing}/build/${build.id}/archive?expires=9999999999&signature=abc`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/gzip' },
        body: 'x',
      },
    );
    expect(forged.status).toBe(403);
  }, 240_000);
});
