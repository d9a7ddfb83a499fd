import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clusters, workspaceMemberships } from '../src/db/schema/index.js';
import { useClusterServer, waitForClusterState } from './helpers/clusters.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  uniq,
} from './helpers/factories.js';

const c = useClusterServer();

/** An organization with a shared workspace and three members of it (one with a low core limit). */
async function team(coreLimit = 1000) {
  const admin = await createUser(c.ts);
  const organization = await createOrganization(c.ts, admin);
  const workspace = await createWorkspace(c.ts, organization);
  const [ann, bob, outsider] = [await createUser(c.ts), await createUser(c.ts), await createUser(c.ts)];
  await addMember(c.ts, ann!, organization, { workspaces: [{ workspace, coreLimit }] });
  await addMember(c.ts, bob!, organization, { workspaces: [{ workspace }] });
  return { workspace, admin, ann: ann!, bob: bob!, outsider: outsider! };
}

describe('who sees and stops clusters', () => {
  it('shows a cluster to the workspace, lets only its creator and admins stop it, and hides it elsewhere', async () => {
    const { workspace, ann, bob, outsider } = await team();
    const base = `/api/v2/clusters/account/${workspace.slug}`;
    const asAnn = c.ts.api.as(ann.key);
    const created = await asAnn.post(`${base}/`, { name: 'shared', workers: 0 });
    expect(created.status).toBe(201);
    const id = created.body.id;

    const asBob = c.ts.api.as(bob.key);
    expect((await asBob.get(`${base}/`)).body.map((x: any) => x.id)).toContain(id);
    expect((await asBob.get(`${base}/`, { query: { just_mine: 1 } })).body).toEqual([]);
    expect((await asBob.get(`${base}/id/${id}`)).status).toBe(200);
    expect((await asBob.get(`${base}/name/shared`)).body.id).toBe(id);
    const refused = await asBob.delete(`${base}/id/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body.code).toBe('PERMISSIONS_ERROR');

    const asOutsider = c.ts.api.as(outsider.key);
    expect((await asOutsider.get(`${base}/id/${id}`)).status).toBe(404);
    expect((await asOutsider.delete(`${base}/id/${id}`)).status).toBe(404);
    // Nor through the calls without the workspace in their path.
    expect((await asOutsider.get(`/api/v2/clusters/id/${id}/frontend`)).status).toBe(404);
    expect((await asOutsider.post(`/api/v2/clusters/id/${id}/event`, { topic: 'x' })).status).toBe(404);
    const elsewhere = await asOutsider.get('/api/v2/user/me');
    expect(
      (await asOutsider.get(`/api/v2/clusters/account/${elsewhere.body.default_account.slug}/id/${id}`))
        .status,
    ).toBe(404);

    expect((await asAnn.delete(`${base}/id/${id}`, { query: { reason: 'mine to stop' } })).status).toBe(200);
    const stopped = await waitForClusterState(asAnn, workspace.slug, id, 'stopped');
    expect(stopped.current_state.reason).toBe('mine to stop');
    expect((await asBob.get(`${base}/name/shared`)).status).toBe(404);
  }, 120_000);

  it("caps the cores of a member's running clusters at their core limit, naming the limit", async () => {
    const { workspace, ann } = await team(3);
    const base = `/api/v2/clusters/account/${workspace.slug}`;
    const api = c.ts.api.as(ann.key);
    const first = await api.post(`${base}/`, { name: 'small', workers: 1 }); // 1 + 1 cores
    expect(first.status).toBe(201);
    const second = await api.post(`${base}/`, { name: 'big', workers: 2 }); // 1 + 2 more
    expect(second.status).toBe(403);
    expect(second.body.code).toBe('CORE_LIMIT_EXCEEDED');
    expect(second.body.message).toContain('core limit of 3');
    expect(second.body.detail).toBe(second.body.message);
    const scaled = await api.post(`/api/v2/workers/account/${workspace.slug}/cluster/${first.body.id}/`, {
      n_workers: 2,
    });
    expect(scaled.status).toBe(403);
    expect(scaled.body.message).toContain('core limit of 3');
    expect((await c.ts.server.deps.db.select().from(clusters).where(eq(clusters.name, 'big'))).length).toBe(
      0,
    );

    await api.delete(`${base}/id/${first.body.id}`);
    await waitForClusterState(api, workspace.slug, first.body.id, 'stopped');
    // Stopped clusters free their cores.
    const later = await api.post(`${base}/`, { name: 'later', workers: 2 });
    expect(later.status).toBe(201);
    await api.delete(`${base}/id/${later.body.id}`);
    await waitForClusterState(api, workspace.slug, later.body.id, 'stopped');
  }, 180_000);

  it('raises the cluster flags and answers the contract shapes', async () => {
    const { workspace, ann } = await team();
    const api = c.ts.api.as(ann.key);
    const flags = async () =>
      Object.fromEntries(
        (await api.get('/api/v2/interactions/flag')).body.map((f: any) => [f.name, f.completed]),
      );
    expect((await flags())['has-created-cluster']).toBe(false);
    await createClusterRow(c.ts, workspace, ann, { state: 'stopped' });
    await createClusterRow(c.ts, workspace, ann, { state: 'stopped' });
    const created = await api.post(`/api/v2/clusters/account/${workspace.slug}/`, {
      name: 'third',
      workers: 0,
    });
    expect(await flags()).toMatchObject({
      'has-created-cluster': true,
      'has-created-at-least-three-clusters': true,
    });
    const overrides = await api.get(`/api/v2/user/workspace/${workspace.slug}/dask-config-overrides`);
    expect(overrides.body).toEqual({});
    expect(overrides.headers['content-type']).toMatch(/^application\/json/);
    const bad = await api.post(`/api/v2/clusters/account/${workspace.slug}/`, { name: 'no spaces please' });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBeDefined();
    const event = await api.post(`/api/v2/clusters/id/${created.body.id}/event`, {
      topic: 'client',
      message: 'hello',
      timestamp: Date.now() / 1000,
      extra_data: null,
      duration: null,
      level: 20,
    });
    expect(event.status).toBe(201);
    const states = await api.get(`/api/v2/clusters/account/${workspace.slug}/id/${created.body.id}/states`);
    const newest = states.body.cluster.at(-1).updated;
    expect(newest).toMatch(/\+00:00$/);
    const later = await api.get(`/api/v2/clusters/account/${workspace.slug}/id/${created.body.id}/states`, {
      query: { start_time: newest },
    });
    expect(later.body.cluster.every((r: any) => r.updated > newest)).toBe(true);
    await api.delete(`/api/v2/clusters/account/${workspace.slug}/id/${created.body.id}`);
    await waitForClusterState(api, workspace.slug, created.body.id, 'stopped');
  }, 120_000);
});

describe('paginate', () => {
  it('pages, filters and orders the clusters the caller may see', async () => {
    const { workspace, ann, bob, outsider } = await team();
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((n) => `${n}-${uniq('p')}`);
    const rows = [];
    for (const [i, name] of names.entries()) {
      const row = await createClusterRow(c.ts, workspace, i < 3 ? ann : bob, {
        name,
        state: i % 2 === 0 ? 'ready' : 'stopped',
      });
      await c.ts.server.deps.db
        .update(clusters)
        .set({ tags: { team: i < 2 ? 'a' : 'b' } })
        .where(eq(clusters.id, row.id));
      rows.push(row);
    }
    const api = c.ts.api.as(ann.key);
    const page = (query: Record<string, string | number>) =>
      api.get('/api/v2/clusters/paginate', { query: { account: workspace.slug, ...query } });

    const first = await page({ limit: 2, offset: 0 });
    expect(first.body.count).toBe(5);
    expect(first.body.items.map((x: any) => x.name)).toEqual([names[4], names[3]]);
    const last = await page({ limit: 2, offset: 4 });
    expect(last.body.items.map((x: any) => x.name)).toEqual([names[0]]);
    expect((await page({ state: 'stopped' })).body.items.map((x: any) => x.name).sort()).toEqual(
      [names[1], names[3]].sort(),
    );
    expect((await page({ tags: 'team:a' })).body.count).toBe(2);
    expect((await page({ name: 'gam' })).body.items.map((x: any) => x.name)).toEqual([names[2]]);
    expect((await page({ just_mine: 1 })).body.count).toBe(3);
    const byName = await page({ order_by: 'name', order_by_direction: 'asc' });
    expect(byName.body.items.map((x: any) => x.name)).toEqual([...names].sort());
    expect(byName.body.items[0]).toMatchObject({
      account: { slug: workspace.slug },
      creator: { username: expect.any(String) },
      desired_workers: 1,
      ready_workers: 1,
    });
    expect((await page({ state: 'nonsense' })).status).toBe(400);
    // Scopes: someone else's workspace is not found; without a scope, only readable workspaces.
    expect(
      (
        await c.ts.api
          .as(outsider.key)
          .get('/api/v2/clusters/paginate', { query: { account: workspace.slug } })
      ).status,
    ).toBe(404);
    const mine = await c.ts.api.as(outsider.key).get('/api/v2/clusters/paginate');
    expect(mine.body.items.filter((x: any) => x.account.id === workspace.id)).toEqual([]);
    // Leaving the workspace hides its clusters.
    await c.ts.server.deps.db.delete(workspaceMemberships).where(eq(workspaceMemberships.userId, bob.id));
    expect((await c.ts.api.as(bob.key).get(`/api/v2/clusters/account/${workspace.slug}/`)).status).toBe(404);
  }, 120_000);
});

describe('what stops a cluster', () => {
  it('answers the timers that will stop it, with the no-client timer off when the client asked for none', async () => {
    const { workspace, ann } = await team();
    const base = `/api/v2/clusters/account/${workspace.slug}`;
    const api = c.ts.api.as(ann.key);
    const bad = await api.post(`${base}/`, {
      name: 'bad-keepalive',
      workers: 0,
      scheduler_options: { no_client_timeout: 'soon' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('"soon" is not a valid no_client_timeout.');

    const fromConsole = await api.post(`${base}/`, { name: 'from-console', workers: 0 });
    const kept = await api.post(`${base}/`, {
      name: 'kept',
      workers: 0,
      scheduler_options: { idle_timeout: '30 minutes', no_client_timeout: null },
      cluster_timeout_seconds: 7200,
    });
    const timers = async (id: number) => (await api.get(`${base}/id/${id}`)).body.stop_timers;
    expect(await timers(fromConsole.body.id)).toEqual([
      { timer: 'idle_timeout', seconds: 1200, at: null },
      { timer: 'no_client_timeout', seconds: 120, at: null },
    ]);
    const created = new Date((await api.get(`${base}/id/${kept.body.id}`)).body.created).getTime();
    const keptTimers = await timers(kept.body.id);
    expect(keptTimers).toEqual([
      { timer: 'cluster_timeout', seconds: 7200, at: expect.any(String) },
      { timer: 'idle_timeout', seconds: 1800, at: null },
    ]);
    expect(new Date(keptTimers[0].at).getTime()).toBe(created + 7_200_000);

    await api.delete(`${base}/id/${kept.body.id}`);
    await waitForClusterState(api, workspace.slug, kept.body.id, 'stopped');
    expect(await timers(kept.body.id)).toEqual([]);
    await api.delete(`${base}/id/${fromConsole.body.id}`);
    await waitForClusterState(api, workspace.slug, fromConsole.body.id, 'stopped');
  }, 120_000);
});
