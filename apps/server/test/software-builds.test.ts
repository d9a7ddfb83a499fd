import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { softwareBuilds } from '../src/db/schema/index.js';
import { buildsOfClusters } from '../src/domains/clusters/index.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { collectEnvironments } from '../src/domains/software/gc.js';
import { PYTHON, runPython, useClusterServer, waitFor, waitForClusterState } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { makeWheel } from './helpers/wheels.js';

const c = useClusterServer();
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-wheels-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Connects a distributed.Client over mutual TLS to the cluster whose details are argv[1]. */
const CONNECT_PREAMBLE = `
import sys, json, tempfile, os
from distributed import Client
from distributed.security import Security
details = json.loads(sys.argv[1])
d = tempfile.mkdtemp()
cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
open(cert, "w").write(details["cluster_options"]["tls_cert"])
open(key, "w").write(details["cluster_options"]["tls_key"])
sec = Security(tls_ca_file=cert, tls_client_cert=cert, tls_client_key=key, require_encryption=True)
address = f"tls://{details['scheduler']['instance']['private_ip_address']}:{details['scheduler_port']}"`;

const base = () => `/api/v2/software-environment/account/${c.slug}`;

/** Announces and uploads a wheel as package sync does; answers its file id. */
async function upload(wheel: Awaited<ReturnType<typeof makeWheel>>): Promise<number> {
  const announced = await c.api.post(`${base()}/package-upload`, {
    name: wheel.fileName,
    md5: wheel.md5Hex,
    wheel_md5: wheel.md5Base64,
  });
  expect(announced.status).toBe(200);
  if (announced.body.should_upload) {
    const put = await fetch(announced.body.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'binary/octet-stream', 'content-md5': wheel.md5Base64 },
      body: wheel.bytes,
    });
    expect(put.status).toBe(200);
  }
  return announced.body.id;
}

/** Creates a spec and waits until its build has ended; answers the build. */
async function buildOf(body: Record<string, unknown>) {
  const created = await c.api.post(base(), body);
  expect(created.status).toBe(201);
  const buildId = created.body.latest_spec.latest_build.id as number;
  return waitFor(
    `build ${buildId}`,
    async () => {
      const res = await c.api.get(`${base()}/build/${buildId}`);
      return ['built', 'error'].includes(res.body.state) && res.body;
    },
    180_000,
    500,
  );
}

async function logsOf(buildId: number): Promise<string[]> {
  const lines: string[] = [];
  let token: string | undefined;
  for (;;) {
    const res = await c.api.get(`${base()}/build/logs/${buildId}`, {
      query: { limit: 100, ...(token ? { pageToken: token } : {}) },
    });
    lines.push(...res.body.events.map((e: { message: string }) => e.message));
    if (res.body.events.length < 100) return lines;
    token = res.body.nextToken;
  }
}

describe('uploaded wheels', () => {
  it('are received at a signed link once, checked against their MD5, and served by the workspace index to pip', async () => {
    const wheel = await makeWheel(scratch, 'cumulus-upload-check', '1.0.0', 'uploaded');
    const announced = await c.api.post(`${base()}/package-upload`, {
      name: wheel.fileName,
      md5: wheel.md5Hex,
      wheel_md5: wheel.md5Base64,
    });
    expect(announced.body.should_upload).toBe(true);
    const url = new URL(announced.body.upload_url);
    // A tampered link, or other bytes than announced, store nothing.
    url.searchParams.set('signature', 'x'.repeat(43));
    const forged = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'binary/octet-stream' },
      body: wheel.bytes,
    });
    expect(forged.status).toBe(403);
    const other = await fetch(announced.body.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'binary/octet-stream' },
      body: Buffer.from('not the wheel'),
    });
    expect(other.status).toBe(400);
    expect((await other.json()).detail).toContain('not the one announced');

    const id = await upload(wheel);
    expect(id).toBe(announced.body.id);
    const again = await c.api.post(`${base()}/package-upload`, {
      name: wheel.fileName,
      md5: wheel.md5Hex,
      wheel_md5: wheel.md5Base64,
    });
    expect(again.body).toMatchObject({ should_upload: false, upload_url: null, id });

    // pip installs it from the workspace's index with an API token as its password.
    const owner = (await findUserBy(c.ts.server.deps.db, 'id', c.user.id))!;
    const { token } = await createToken(c.ts.server.deps.db, owner, { label: 'pip' });
    const index = new URL(`/api/v2/packages/index/${c.slug}/simple/`, c.ts.url);
    index.username = '__token__';
    index.password = token;
    const target = mkdtempSync(path.join(scratch, 'download-'));
    await new Promise<void>((resolve, reject) =>
      execFile(
        PYTHON,
        [
          '-m',
          'pip',
          'download',
          '--no-deps',
          '--no-cache-dir',
          '--index-url',
          index.toString(),
          '-d',
          target,
          'cumulus-upload-check',
        ],
        { env: { PATH: process.env.PATH ?? '', HOME: scratch } },
        (err, _out, stderr) => (err ? reject(new Error(stderr)) : resolve()),
      ),
    );
    expect(readdirSync(target)).toEqual([wheel.fileName]);
    // Without credentials the index says nothing.
    expect((await fetch(new URL(`/api/v2/packages/index/${c.slug}/simple/`, c.ts.url))).status).toBe(401);
  }, 120_000);
});

describe('builds', () => {
  it('install the uploaded wheels and pip packages into an environment, record its lockfile, and build the same spec once', async () => {
    const wheel = await makeWheel(scratch, 'cumulus-testpkg', '0.1.0', 'from-wheel');
    const file = await upload(wheel);
    const spec = {
      name: 'with-wheel',
      packages: [{ name: 'cumulus-testpkg', source: 'pip', specifier: '', include: true, file }],
    };
    const build = await buildOf(spec);
    expect(build.state).toBe('built');
    expect(build.packages).toEqual([
      expect.objectContaining({ name: 'cumulus-testpkg', version: '0.1.0', source: 'file' }),
    ]);
    const logs = await logsOf(build.id);
    expect(logs.some((l) => /Successfully installed cumulus-testpkg-0\.1\.0/.test(l))).toBe(true);
    const lockfile = await c.api.get(`${base()}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(/^# cumulus lockfile: Python 3\.\d+/);
    expect(lockfile.text).toContain('\ncumulus-testpkg==0.1.0\n');

    // The environment imports the wheel and still sees the interpreter's Dask.
    const [row] = await c.ts.server.deps.db
      .select()
      .from(softwareBuilds)
      .where(eq(softwareBuilds.id, build.id));
    const python = path.join(row!.location!, 'bin', 'python');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        python,
        ['-c', 'import cumulus_testpkg, distributed; print(cumulus_testpkg.VALUE)'],
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    expect(out.trim()).toBe('from-wheel');

    // The same spec is not built again; forced, it resolves to the same packages and shares the environment.
    const again = await c.api.post(base(), spec);
    expect(again.body.latest_spec.latest_build.id).toBe(build.id);
    const forced = await buildOf({ ...spec, force_rebuild: true });
    expect(forced.id).not.toBe(build.id);
    expect(forced.lockfile_hash).toBe(build.lockfile_hash);
    expect((await logsOf(forced.id)).join('\n')).toContain('reusing it');
  }, 240_000);

  it("end in error with pip's own message when a requirement cannot be had, and say why conda cannot build here", async () => {
    const failed = await buildOf({
      name: 'impossible',
      raw_pip: ['cumulus-no-such-package-anywhere==9.9.9'],
    });
    expect(failed.state).toBe('error');
    expect(failed.reason).toMatch(
      /^pip exited with code 1: .*No matching distribution found for cumulus-no-such-package-anywhere==9\.9\.9/,
    );
    expect((await logsOf(failed.id)).join('\n')).toContain('The build failed: pip exited with code 1');

    const conda = await buildOf({
      name: 'conda-env',
      raw_conda: { channels: ['conda-forge'], dependencies: ['numpy'] },
    });
    expect(conda.state).toBe('error');
    expect(conda.reason).toContain('Conda environments cannot be built here');
  }, 240_000);

  it('lose their files once unused past the retention, keep their lockfile, and are restored from it', async () => {
    const wheel = await makeWheel(scratch, 'cumulus-gcpkg', '2.0.0', 'kept');
    const file = await upload(wheel);
    const first = await buildOf({
      name: 'collected',
      packages: [{ name: 'cumulus-gcpkg', source: 'pip', specifier: '', include: true, file }],
    });
    // A newer spec takes the alias over: the first build is no longer used.
    await buildOf({ name: 'collected', raw_pip: [] });
    const { db, backends } = c.ts.server.deps;
    const freed = await collectEnvironments(db, backends, {
      retentionMs: 0,
      dataDir: c.ts.dataDir,
      log: c.ts.app.log,
      buildsOfClusters: () => buildsOfClusters(db),
    });
    expect(freed).toBeGreaterThanOrEqual(1);
    const archived = await c.api.get(`${base()}/build/${first.id}`);
    expect(archived.body).toMatchObject({ state: 'built', archived: true, size_bytes: 0 });
    expect(archived.body.reason).toContain('Archived');
    expect((await c.api.get(`${base()}/build/${first.id}/lockfile`)).text).toContain('cumulus-gcpkg==2.0.0');

    // Asking for that content again restores it exactly.
    const restored = await buildOf({
      name: 'collected',
      packages: [{ name: 'cumulus-gcpkg', source: 'pip', specifier: '', include: true, file }],
    });
    expect(restored.state).toBe('built');
    expect(restored.lockfile_hash).toBe(first.lockfile_hash);
  }, 240_000);
});

describe('clusters on an environment', () => {
  it('wait for its build, saying so, then run Dask with it: workers import the uploaded package', async () => {
    const wheel = await makeWheel(scratch, 'cumulus-clusterpkg', '3.1.0', 'on-the-workers');
    const file = await upload(wheel);
    const created = await c.api.post(base(), {
      name: 'for-clusters',
      packages: [{ name: 'cumulus-clusterpkg', source: 'pip', specifier: '', include: true, file }],
    });
    const cluster = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'on-env',
      workers: 1,
      env_name: 'for-clusters',
    });
    expect(cluster.status).toBe(201);
    const id = cluster.body.id;
    const waiting = await waitFor('the cluster to say it waits', async () => {
      const res = await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${id}`);
      return res.body.current_state.reason.startsWith('Waiting for software environment') && res.body;
    });
    expect(waiting.current_state.state).toBe('pending');
    const ready = await waitForClusterState(c.api, c.slug, id, 'ready', 180_000);
    expect(ready.senv_alias).toEqual({ name: 'for-clusters' });
    const build = await c.api.get(`${base()}/build/${created.body.latest_spec.latest_build.id}`);
    expect(build.body.state).toBe('built');
    const out = await runPython(
      `${CONNECT_PREAMBLE}
with Client(address, security=sec, timeout=60) as client:
    values = client.run(lambda: __import__("cumulus_clusterpkg").VALUE)
    print(json.dumps(sorted(set(values.values()))))`,
      [JSON.stringify(ready)],
    );
    expect(JSON.parse(out)).toEqual(['on-the-workers']);
    await c.api.delete(`/api/v2/clusters/account/${c.slug}/id/${id}`);
    await waitForClusterState(c.api, c.slug, id, 'stopped');
  }, 300_000);

  it('fail with the reason of a build that failed, and refuse an environment the workspace does not have', async () => {
    await buildOf({ name: 'broken-env', raw_pip: ['cumulus-no-such-package-anywhere==1.0'] });
    const cluster = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'on-broken',
      env_name: 'broken-env',
    });
    const failed = await waitForClusterState(c.api, c.slug, cluster.body.id, 'error');
    expect(failed.current_state.reason).toMatch(
      /^Software environment broken-env failed to build: pip exited with code 1/,
    );
    const unknown = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, {
      name: 'on-nothing',
      env_name: 'nope',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ env_name: ['No software environment nope in this workspace.'] });
  }, 240_000);
});

describe('package sync', () => {
  it('approximates a scan of this interpreter: Dask exactly, what only clients run left out', async () => {
    const scan = JSON.parse(
      await runPython(`
import json, platform
from importlib.metadata import distributions
pkgs = [{"name": d.metadata["Name"], "version": d.version, "source": "pip"} for d in distributions() if d.metadata["Name"]]
major, minor, patch = platform.python_version_tuple()
pkgs.append({"name": "python", "version": platform.python_version(), "source": "conda", "channel": "ANY-AVAILABLE",
             "python_major_version": major, "python_minor_version": minor, "python_patch_version": patch})
print(json.dumps(pkgs))`),
    );
    const res = await c.ts.api.post('/api/v2/software-environment/approximate-packages', {
      architecture: 'x86_64',
      packages: scan,
    });
    expect(res.status).toBe(200);
    const by = new Map(res.body.map((p: { name: string }) => [p.name.toLowerCase(), p]));
    const distributed = scan.find((p: { name: string }) => p.name === 'distributed');
    expect(by.get('distributed')).toMatchObject({
      specifier: `==${distributed.version}`,
      include: true,
      error: null,
    });
    expect(by.get('python')).toMatchObject({ include: true, error: null });
    expect((by.get('python') as { specifier: string }).specifier).toMatch(/^==3\.\d+\.\*$/);
    expect(by.get('pip')).toMatchObject({ include: false });
    // A client on another Python is told plainly.
    const other = await c.ts.api.post('/api/v2/software-environment/approximate-packages', {
      packages: [{ name: 'python', version: '2.7.18', source: 'conda' }],
    });
    expect(other.body[0].error).toMatch(/^Your Python is 2\.7, clusters here run Python 3\.\d+/);
  });
});

describe('the package cache', () => {
  it('lists what every environment starts with, filtered and paged; flushing is for staff', async () => {
    const distributedVersion = (await runPython('import distributed; print(distributed.__version__)')).trim();
    const found = await c.api.get('/api/v2/packages/cache', { query: { name: 'distributed' } });
    expect(found.status).toBe(200);
    expect(found.body.items).toContainEqual(
      expect.objectContaining({ name: 'distributed', version: distributedVersion, source: 'pip' }),
    );
    expect(found.body.items.every((p: { name: string }) => p.name.includes('distributed'))).toBe(true);

    const all = await c.api.get('/api/v2/packages/cache', { query: { limit: 500 } });
    expect(all.body.count).toBeGreaterThan(20);
    const second = await c.api.get('/api/v2/packages/cache', { query: { limit: 2, offset: 1 } });
    expect(second.body.items).toEqual(all.body.items.slice(1, 3));
    expect((await c.api.get('/api/v2/packages/cache', { query: { source: 'npm' } })).status).toBe(400);
    expect((await c.api.get('/api/v2/packages/cache', { query: { python_version: '2.7' } })).body.count).toBe(
      0,
    );

    expect((await c.api.get('/api/v2/packages/cache/invalidate')).body).toEqual({ invalidated: true });
    expect((await c.api.get('/api/v2/packages/cache', { query: { limit: 500 } })).body).toEqual(all.body);
    expect((await c.api.get('/api/v2/packages/cache/flush')).status).toBe(403);
    const staff = c.ts.api.as((await createUser(c.ts, { staff: true })).key);
    expect((await staff.get('/api/v2/packages/cache/flush')).body).toEqual({
      flushed: true,
      count: all.body.count,
    });
    expect((await c.ts.api.get('/api/v2/packages/cache')).status).toBe(401);
  });
});
