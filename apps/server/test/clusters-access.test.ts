import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, httpsCertificates, instances } from '../src/db/schema/index.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
  uniq,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Cluster calls that need no running cluster: notebooks, staff triage, SSH keys, certificates. */

let ts: TestServer;
let staff: TestUser;
let ann: TestUser;
let outsider: TestUser;
let workspace: { id: number; slug: string };
let other: { id: number; slug: string };

beforeAll(async () => {
  ts = await startTestServer();
  staff = await createUser(ts, { staff: true });
  ann = await createUser(ts);
  outsider = await createUser(ts);
  const organization = await createOrganization(ts, ann);
  workspace = await createWorkspace(ts, organization);
  await addMember(ts, ann, organization, { workspaces: [{ workspace }] });
  const elsewhere = await createOrganization(ts, outsider);
  other = await createWorkspace(ts, elsewhere);
  await addMember(ts, outsider, elsewhere, { workspaces: [{ workspace: other }] });
}, 120_000);
afterAll(() => ts?.close());

async function taggedCluster(tags: Record<string, string>, name = uniq('nb')) {
  const row = await createClusterRow(ts, workspace, ann, { name });
  await ts.server.deps.db.update(clusters).set({ tags }).where(eq(clusters.id, row.id));
  return row;
}

describe('paginate-notebook', () => {
  it('lists only clusters tagged as notebooks, with the filters of paginate', async () => {
    const mine = await taggedCluster({ 'cumulus-cluster-type': 'notebook' }, uniq('lab'));
    const theirs = await taggedCluster({ 'coiled-cluster-type': 'notebook', team: 'geo' }, uniq('lab'));
    const batch = await taggedCluster({ 'cumulus-cluster-type': 'batch' }, uniq('lab'));
    const plain = await createClusterRow(ts, workspace, ann);
    const api = ts.api.as(ann.key);

    const all = await api.get('/api/v2/clusters/paginate-notebook', { query: { account: workspace.slug } });
    expect(all.status).toBe(200);
    expect(all.body.items.map((c: any) => c.id).sort()).toEqual([mine.id, theirs.id].sort());
    expect(all.body.count).toBe(2);
    const everything = await api.get('/api/v2/clusters/paginate', { query: { account: workspace.slug } });
    expect(everything.body.items.map((c: any) => c.id)).toEqual(
      expect.arrayContaining([mine.id, theirs.id, batch.id, plain.id]),
    );

    const filtered = await api.get('/api/v2/clusters/paginate-notebook', {
      query: { account: workspace.slug, tags: 'team:geo' },
    });
    expect(filtered.body.items.map((c: any) => c.id)).toEqual([theirs.id]);
    const named = await api.get('/api/v2/clusters/paginate-notebook', {
      query: { account: workspace.slug, name: mine.name.slice(0, 12), order_by: 'name' },
    });
    expect(named.body.items.map((c: any) => c.id)).toContain(mine.id);
    expect(named.body.items.every((c: any) => c.id !== batch.id)).toBe(true);

    const hidden = await ts.api
      .as(outsider.key)
      .get('/api/v2/clusters/paginate-notebook', { query: { account: other.slug } });
    expect(hidden.body).toEqual({ items: [], count: 0 });
  });
});

describe('staff-has-seen', () => {
  it('lets staff mark a cluster seen and unmark it, recording who and when', async () => {
    const cluster = await createClusterRow(ts, workspace, ann);
    const url = `/api/v2/clusters/account/${workspace.slug}/id/${cluster.id}/staff-has-seen`;
    const seen = await ts.api.as(staff.key).post(url, undefined, { query: { seen: 'true' } });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: cluster.id,
      staff_has_seen: true,
      staff_seen_by: { id: staff.id, username: staff.username },
    });
    expect(seen.body.staff_seen_at).toMatch(/\+00:00$/);
    const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, cluster.id));
    expect(row!.staffSeenById).toBe(staff.id);

    expect((await ts.api.as(ann.key).post(url, undefined, { query: { seen: 0 } })).status).toBe(403);
    const unseen = await ts.api.as(staff.key).post(url, undefined, { query: { seen: 0 } });
    expect(unseen.body).toMatchObject({ staff_has_seen: false, staff_seen_at: null, staff_seen_by: null });
    const missing = `/api/v2/clusters/account/${other.slug}/id/${cluster.id}/staff-has-seen`;
    expect((await ts.api.as(staff.key).post(missing)).status).toBe(404);
  });
});

describe('ssh-key', () => {
  it('answers an Ed25519 OpenSSH key that ssh-keygen reads, the same every time, and says SSH is not served', async () => {
    const cluster = await createClusterRow(ts, workspace, ann);
    const [worker] = await ts.server.deps.db
      .update(instances)
      .set({ privateIpAddress: '127.0.0.1' })
      .where(eq(instances.clusterId, cluster.id))
      .returning();
    const url = `/api/v2/clusters/account/${workspace.slug}/id/${cluster.id}/ssh-key`;
    const api = ts.api.as(ann.key);
    const first = await api.get(url);
    expect(first.status).toBe(200);
    expect(first.body.private_key).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+\n-----END OPENSSH PRIVATE KEY-----\n$/,
    );
    expect(first.body.public_key).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\S+ cumulus-/);
    expect(first.body).toMatchObject({
      scheduler_state: null,
      scheduler_private_address: null,
      worker_address: null,
      ssh_available: false,
    });
    expect(first.body.detail).toContain('no SSH server');
    expect((await api.get(url)).body.private_key).toBe(first.body.private_key);
    const [row] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, cluster.id));
    expect(row!.sshKeyBox).not.toContain('OPENSSH');

    const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-ssh-'));
    try {
      const file = path.join(dir, 'key');
      writeFileSync(file, first.body.private_key, { mode: 0o600 });
      const { stdout } = await promisify(execFile)('ssh-keygen', ['-y', '-f', file]);
      expect(stdout.trim().split(' ').slice(0, 2)).toEqual(first.body.public_key.split(' ').slice(0, 2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const suffix = worker!.name.slice(`${cluster.name}-worker`.length);
    for (const name of [worker!.name, suffix, suffix.slice(1), '127.0.0.1']) {
      const found = await api.get(url, { query: { worker: name } });
      expect(found.body.worker_address, name).toBe('127.0.0.1');
    }
    const unknown = await api.get(url, { query: { worker: 'nobody' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('no worker named nobody');
    expect((await ts.api.as(outsider.key).get(url)).status).toBe(404);
  });
});

describe('https-certificate', () => {
  const post = (user: TestUser, slug: string, subdomain: unknown) =>
    ts.api.as(user.key).post(`/api/v2/clusters/account/${slug}/https-certificate`, { subdomain });
  const get = (user: TestUser, slug: string, subdomain: string) =>
    ts.api.as(user.key).get(`/api/v2/clusters/account/${slug}/https-certificate/${subdomain}`);

  it('records the request and answers error (no DNS or ACME here); another workspace finds it in use', async () => {
    const name = uniq('dash').toLowerCase();
    expect((await get(ann, workspace.slug, name)).status).toBe(404);
    const asked = await post(ann, workspace.slug, name.toUpperCase());
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ subdomain: name, status: 'error' });
    expect(asked.body.message).toContain('no DNS zone or ACME');
    expect((await get(ann, workspace.slug, name)).body).toEqual(asked.body);
    const [row] = await ts.server.deps.db
      .select()
      .from(httpsCertificates)
      .where(eq(httpsCertificates.subdomain, name));
    expect(row).toMatchObject({ workspaceId: workspace.id, requestedById: ann.id, status: 'error' });

    const taken = await post(outsider, other.slug, name);
    expect(taken.body).toMatchObject({ status: 'in use' });
    expect(taken.body.message).toContain('another workspace');
    expect((await get(outsider, other.slug, name)).body.status).toBe('in use');
    const [still] = await ts.server.deps.db
      .select()
      .from(httpsCertificates)
      .where(eq(httpsCertificates.subdomain, name));
    expect(still!.workspaceId).toBe(workspace.id);
  });

  it('answers in use while a running cluster has the subdomain, and refuses names that are no DNS label', async () => {
    const name = uniq('run').toLowerCase();
    const cluster = await createClusterRow(ts, workspace, ann);
    await ts.server.deps.db
      .update(clusters)
      .set({ options: { custom_subdomain: name } })
      .where(eq(clusters.id, cluster.id));
    const busy = await post(ann, workspace.slug, name);
    expect(busy.body.status).toBe('in use');
    expect(busy.body.message).toContain(cluster.name);
    await ts.server.deps.db
      .update(clusters)
      .set({ desiredState: 'stopped', state: 'stopped' })
      .where(eq(clusters.id, cluster.id));
    expect((await post(ann, workspace.slug, name)).body.status).toBe('error');

    for (const bad of ['-x', 'a_b', 'a.b', 'x'.repeat(64), '']) {
      const refused = await post(ann, workspace.slug, bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.subdomain, bad).toHaveLength(1);
    }
  });
});
