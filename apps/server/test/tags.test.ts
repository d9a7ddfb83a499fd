import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterProcesses, clusters } from '../src/db/schema/index.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Cluster tags across a caller's scope (tags/labels, tags/values) and the alerts of tagged
 * clusters (tags/alert-contents), on clusters of two workspaces of which the member reads one.
 */
let ts: TestServer;
let member: TestUser;
let staff: TestUser;
let slug: string;
let failedId: number;

async function tagged(workspace: { id: number }, creator: { id: number }, tags: Record<string, string>) {
  const cluster = await createClusterRow(ts, workspace, creator);
  await ts.server.deps.db.update(clusters).set({ tags }).where(eq(clusters.id, cluster.id));
  return cluster;
}

beforeAll(async () => {
  ts = await startTestServer();
  member = await createUser(ts);
  staff = await createUser(ts, { staff: true });
  const other = await createUser(ts);
  const organization = await createOrganization(ts, other);
  const mine = await createWorkspace(ts, organization);
  const theirs = await createWorkspace(ts, organization);
  slug = mine.slug;
  await addMember(ts, member, organization, { workspaces: [{ workspace: mine }] });
  await tagged(mine, member, { team: 'etl', project: 'nightly' });
  await tagged(mine, other, { team: 'etl', 'cumulus-cluster-type': 'notebook' });
  const failed = await tagged(mine, member, { team: 'ml', note: 'see [docs](javascript:alert(1))' });
  failedId = failed.id;
  await ts.server.deps.db
    .update(clusters)
    .set({ state: 'error', stateReason: 'The scheduler exited with code 1.' })
    .where(eq(clusters.id, failed.id));
  await ts.server.deps.db
    .update(clusterProcesses)
    .set({ state: 'error', stateReason: 'Worker was killed (out of memory).' })
    .where(eq(clusterProcesses.clusterId, failed.id));
  // Another workspace of the organization the member does not belong to.
  const hidden = await tagged(theirs, other, { team: 'secret-team', hidden: 'yes' });
  await ts.server.deps.db
    .update(clusters)
    .set({ state: 'error', stateReason: 'x' })
    .where(eq(clusters.id, hidden.id));
}, 120_000);
afterAll(() => ts?.close());

describe('tags/labels', () => {
  it('answers the tag keys of the clusters the caller reads, with counts, without system tags', async () => {
    const res = await ts.api.as(member.key).get('/api/v2/tags/labels');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { key: 'note', system: false, cluster_count: 1 },
        { key: 'project', system: false, cluster_count: 1 },
        { key: 'team', system: false, cluster_count: 3 },
      ],
      count: 3,
    });
  });

  it('adds the tags Cumulus sets with system_tags, and filters by prefix and pages', async () => {
    const all = await ts.api.as(member.key).get('/api/v2/tags/labels', { query: { system_tags: true } });
    expect(all.body.items).toContainEqual({ key: 'cumulus-cluster-type', system: true, cluster_count: 1 });
    const some = await ts.api
      .as(member.key)
      .get('/api/v2/tags/labels', { query: { starts_with: 'P', limit: 1, offset: 0 } });
    expect(some.body).toEqual({ items: [{ key: 'project', system: false, cluster_count: 1 }], count: 1 });
    const page = await ts.api.as(member.key).get('/api/v2/tags/labels', { query: { limit: 2, offset: 2 } });
    expect(page.body).toEqual({ items: [{ key: 'team', system: false, cluster_count: 3 }], count: 3 });
  });

  it('follows the scope filters: a workspace the caller is not in is not found; staff may see all', async () => {
    const scoped = await ts.api.as(member.key).get('/api/v2/tags/labels', { query: { account: slug } });
    expect(scoped.body.count).toBe(3);
    const mine = await ts.api.as(member.key).get('/api/v2/tags/labels', { query: { user: member.id } });
    expect(mine.body.items.map((i: { key: string }) => i.key)).toEqual(['note', 'project', 'team']);
    expect(
      (await ts.api.as(member.key).get('/api/v2/tags/labels', { query: { custom_staff_scope: 'all' } }))
        .status,
    ).toBe(403);
    const everything = await ts.api
      .as(staff.key)
      .get('/api/v2/tags/labels', { query: { custom_staff_scope: 'all' } });
    expect(everything.body.items.map((i: { key: string }) => i.key)).toContain('hidden');
  });
});

describe('tags/values', () => {
  it('answers key/value pairs in scope, of one key if asked, filtered by the start of the value', async () => {
    const team = await ts.api.as(member.key).get('/api/v2/tags/values', { query: { key: 'team' } });
    expect(team.body).toEqual({
      items: [
        { key: 'team', value: 'etl', system: false, cluster_count: 2 },
        { key: 'team', value: 'ml', system: false, cluster_count: 1 },
      ],
      count: 2,
    });
    const e = await ts.api.as(member.key).get('/api/v2/tags/values', { query: { starts_with: 'E' } });
    expect(e.body.items).toEqual([{ key: 'team', value: 'etl', system: false, cluster_count: 2 }]);
    const all = await ts.api.as(member.key).get('/api/v2/tags/values');
    expect(all.body.count).toBe(5);
    expect(JSON.stringify(all.body)).not.toContain('secret-team');
  });

  it('takes % and _ in starts_with literally, and refuses an unbounded key', async () => {
    const res = await ts.api.as(member.key).get('/api/v2/tags/values', { query: { starts_with: '%' } });
    expect(res.body).toEqual({ items: [], count: 0 });
    const long = await ts.api.as(member.key).get('/api/v2/tags/values', { query: { key: 'k'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.key).toBeDefined();
  });
});

describe('tags/alert-contents', () => {
  it('answers the alerts of tagged clusters in scope, most severe first, as markdown linking to the cluster', async () => {
    const res = await ts.api
      .as(member.key)
      .get('/api/v2/tags/alert-contents', { query: { tags: 'team:ml' } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    const [cluster, worker] = res.body.items;
    expect(cluster).toMatchObject({
      level: 40,
      title: expect.stringMatching(/^Cluster .* failed$/),
      cluster_id: failedId,
      account: slug,
      tags: { team: 'ml' },
    });
    expect(cluster.message).toBe(
      `The scheduler exited with code 1.\n\n[Open ${cluster.cluster_name}](/clusters/${failedId}?account=${slug})`,
    );
    expect(worker.message).toMatch(/^Worker was killed \(out of memory\)\./);
    expect(cluster.first_occurred).toMatch(/\+00:00$/);
  });

  it('answers nothing for tags no alerting cluster carries, or outside the scope', async () => {
    const etl = await ts.api
      .as(member.key)
      .get('/api/v2/tags/alert-contents', { query: { tags: 'team:etl' } });
    expect(etl.body).toEqual({ items: [], count: 0 });
    const hidden = await ts.api
      .as(member.key)
      .get('/api/v2/tags/alert-contents', { query: { tags: 'hidden' } });
    expect(hidden.body).toEqual({ items: [], count: 0 });
    const high = await ts.api
      .as(member.key)
      .get('/api/v2/tags/alert-contents', { query: { tags: 'team', min_level: 50 } });
    expect(high.body.count).toBe(0);
  });

  it('needs a signed-in user', async () => {
    expect((await ts.api.get('/api/v2/tags/alert-contents')).status).toBe(401);
  });
});
