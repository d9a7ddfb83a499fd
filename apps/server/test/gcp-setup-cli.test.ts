import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import type { Api } from './helpers/api.js';
import { PYTHON, pythonClientEnv, startClusterServer } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { GceRig } from './helpers/gce-rig/rig.js';

/**
 * `cumulus setup gcp` against a real server whose Google is the GCE rig: a key file goes in (a
 * token exchange and the permission check at the rig), the network, region and zone are set up,
 * and each refusal is printed at the option it is about.
 */
let rig: GceRig;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;
let env: Record<string, string>;
const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-setup-gcp-'));

beforeAll(async () => {
  rig = await new GceRig().start();
  ts = await startClusterServer({ ...rig.env(), CUMULUS_GCP_WORKLOAD_IDENTITY: 'true' });
  const admin = await createUser(ts);
  api = ts.api.as(admin.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  const owner = (await findUserBy(ts.server.deps.db, 'id', admin.id))!;
  const { token } = await createToken(ts.server.deps.db, owner, { label: 'setup-gcp' });
  env = pythonClientEnv(ts.url, token);
}, 120_000);

afterAll(async () => {
  await ts?.close();
  await rig?.stop();
});

function keyFile(name: string, key: Record<string, string>): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(key, null, 2));
  return file;
}

function setupGcp(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      PYTHON,
      ['-m', 'cumulus', 'setup', 'gcp', '--workspace', slug, ...args],
      { timeout: 120_000, env },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    // Nobody answers the question: an empty answer, as at a closed terminal.
    child.stdin?.end();
  });
}

describe('cumulus setup gcp', () => {
  it('refuses a key before anything is stored, at the option it is about', async () => {
    const key = rig.tokens.createKey('cumulus', 'cli-project-1');
    rig.resourceManager.withhold(['compute.instances.create', 'compute.disks.create'], key.client_email);
    const missing = await setupGcp('--key-file', keyFile('short', key), '--yes');
    rig.resourceManager.restore();
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(
      `Error: --key-file: The service account ${key.client_email} lacks permissions Cumulus needs in project "cli-project-1": compute.instances.create, compute.disks.create. Grant them and save the key again.`,
    );

    const otherProject = await setupGcp(
      '--key-file',
      keyFile('key', key),
      '--project',
      'another-project',
      '--yes',
    );
    expect(otherProject.stderr.trim()).toBe(
      'Error: --project: The key is for project "cli-project-1", not "another-project".',
    );
    const notJson = path.join(dir, 'not.json');
    writeFileSync(notJson, 'type = service_account');
    const garbled = await setupGcp('--key-file', notJson, '--yes');
    expect(garbled.stderr.trim()).toBe(
      `Error: --key-file ${notJson}: not a JSON key file (Expecting value, line 1).`,
    );
    const absent = await setupGcp('--key-file', path.join(dir, 'nowhere.json'), '--yes');
    expect(absent.stderr.trim()).toBe(
      `Error: --key-file ${path.join(dir, 'nowhere.json')}: there is no such file.`,
    );
    const notAsked = await setupGcp('--key-file', keyFile('key', key));
    expect(notAsked.stderr.trim()).toBe(
      'Error: Not confirmed: nothing was changed. Run with --yes to go ahead without asking.',
    );
    expect((await api.get(`/api/v2/cloud-credentials/${slug}/gcp`)).body.configured).toBe(false);
  }, 240_000);

  it('stores the key and sets up the network, the region and the zone', async () => {
    const key = rig.tokens.createKey('cumulus', 'cli-project-1');
    const file = keyFile('key', key);
    const wrongZone = await setupGcp(
      '--key-file',
      file,
      '--region',
      'us-east1',
      '--zone',
      'us-west1-a',
      '--yes',
    );
    expect(wrongZone.code).toBe(1);
    expect(wrongZone.stderr.trim()).toBe('Error: --zone us-west1-a: not a zone of us-east1 (--region).');
    expect((await api.get(`/api/v2/cloud-credentials/${slug}/gcp`)).body.configured).toBe(false);
    const done = await setupGcp(
      '--key-file',
      file,
      '--region',
      'us-east1',
      '--zone',
      'us-east1-c',
      '--network',
      'dask-net',
      '--target-tag',
      'dask',
      '--yes',
    );
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Stored: project cli-project-1, service account ${key.client_email}, key `);
    expect(done.stdout).toContain('Network dask-net, instances tagged dask.');
    expect(done.stdout).toContain('Region us-east1: subnet dask-net of dask-net.');
    expect(done.stdout).toContain('Done: new clusters of workspace');
    expect(rig.tokens.exchanges).toContain(key.client_email);
    expect(rig.resourceManager.tested).toContain('cli-project-1');
    const setup = `/api/v2/setup/account/${slug}/gcp`;
    expect((await api.get(`${setup}/settings`)).body.zone).toBe('us-east1-c');
    expect((await api.get(`${setup}/global`)).body).toMatchObject({
      network: 'dask-net',
      target_tags: ['dask'],
    });
    const me = (await api.get('/api/v2/user/me')).body.default_account;
    expect(me).toMatchObject({ setup_complete: true, active_backend: 'vm_gcp' });
  }, 240_000);

  it("connects the server's own service account with --workload-identity, its operator being the one asking", async () => {
    const both = await setupGcp('--workload-identity', '--key-file', 'key.json', '--yes');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('argument --key-file: not allowed with argument --workload-identity');
    const done = await setupGcp('--workload-identity', '--region', 'us-east1', '--yes');
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("The server's own service account, in the server's own project.");
    expect(done.stdout).toContain(`Stored: project ${rig.project}, service account ${rig.serverAccount}.`);
    expect((await api.get(`/api/v2/cloud-credentials/${slug}/gcp`)).body).toMatchObject({
      kind: 'workload_identity',
      summary: { client_email: rig.serverAccount, project_id: rig.project },
    });
  }, 240_000);
});
