import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banners } from '../src/db/schema/index.js';
import { errorClassOf } from '../src/domains/onboarding/service.js';
import {
  addMember,
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

describe('interactions and flags', () => {
  it('lists the interaction types and records what the user has seen', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const types = await api.get('/api/v1/interaction_types/');
    expect(types.body.results.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['api-token-message', 'user-info-on-sign-in', 'warned-about-ecs']),
    );
    expect((await api.get('/api/v1/interactions/')).body.results).toEqual([]);
    const seen = await api.post('/api/v1/interactions/', { interaction_type: 'api-token-message' });
    expect(seen.status).toBe(201);
    expect((await api.get('/api/v1/interactions/')).body.results).toEqual([
      expect.objectContaining({ interaction_type: 'api-token-message' }),
    ]);
    const unknown = await api.post('/api/v1/interactions/', { interaction_type: 'nope' });
    expect(unknown.body).toEqual({ interaction_type: ['Invalid interaction type "nope".'] });
    // Interactions are private to each user.
    const other = await createUser(ts);
    expect((await ts.api.as(other.key).get('/api/v1/interactions/')).body.count).toBe(0);
  });

  it('reads and sets flags, one or several at a time', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    expect((await api.put('/api/v2/interactions/flag/user-source-dialog', { completed: true })).body).toEqual(
      {
        name: 'user-source-dialog',
        completed: true,
      },
    );
    const some = await api.get('/api/v2/interactions/flag?name=user-source-dialog&name=has-created-cluster');
    expect(some.body).toEqual([
      { name: 'user-source-dialog', completed: true },
      { name: 'has-created-cluster', completed: false },
    ]);
    expect((await api.get('/api/v2/interactions/flag')).body).toHaveLength(7);
    expect((await api.get('/api/v2/interactions/flag/not-a-flag')).status).toBe(404);
  });

  it('keeps the get-started checklist', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    expect((await api.get('/api/v2/interactions/get-started')).body).toEqual({ completed: false, data: {} });
    await api.put('/api/v2/interactions/get-started', { data: { installed: true } });
    const done = await api.put('/api/v2/interactions/get-started', {
      completed: true,
      data: { first_cluster: true },
    });
    expect(done.body).toEqual({ completed: true, data: { installed: true, first_cluster: true } });
  });

  it('accepts what the Python client reports about itself', async () => {
    const user = await createUser(ts);
    const res = await ts.api.as(user.key).post('/api/v2/interactions/interaction', {
      action: 'cluster-create',
      version: 1,
      success: false,
      coiled_version: '1.2.3',
      error_message: 'boom',
      additional_text: null,
      additional_data: { n: 1 },
    });
    expect(res.status).toBe(201);
  });
});

describe('the get-started checklist follows what the user really did', () => {
  const flag = async (key: string, name: string) =>
    (await ts.api.as(key).get(`/api/v2/interactions/flag/${name}`)).body.completed;

  it('ticks has-api-key when a token is made on the Profile page', async () => {
    const user = await createUser(ts);
    expect(await flag(user.key, 'has-api-key')).toBe(false);
    expect((await ts.api.as(user.key).post('/api/v1/api-tokens/', { label: 'ci' })).status).toBe(201);
    expect(await flag(user.key, 'has-api-key')).toBe(true);
    // A token alone says nothing about the Python client being installed.
    expect((await ts.api.as(user.key).get('/api/v2/interactions/get-started')).body.data).toEqual({});
  });

  it('records that the Python client was used when it reports its version', async () => {
    const user = await createUser(ts);
    await ts.api.as(user.key).post('/api/v2/interactions/interaction', {
      action: 'cluster-create',
      cumulus_version: '0.1.0',
    });
    expect((await ts.api.as(user.key).get('/api/v2/interactions/get-started')).body.data).toEqual({
      client: { version: '0.1.0' },
    });
  });

  it('ticks has-api-key when `cumulus login` is authorized in the browser', async () => {
    const user = await createUser(ts);
    const pending = await ts.api.post('/api/v1/api-tokens-no-user/', { label: 'laptop' });
    expect(await flag(user.key, 'has-api-key')).toBe(false);
    const activated = await ts.api
      .as(user.key)
      .patch(`/api/v1/api-tokens/${pending.body.identifier}/activate/`, {
        user_code: pending.body.user_code,
      });
    expect(activated.status).toBe(200);
    expect(await flag(user.key, 'has-api-key')).toBe(true);
    expect((await ts.api.as(user.key).get('/api/v2/interactions/get-started')).body.data).toEqual({
      client: { version: null },
    });
  });

  it("ticks the compute step at the first computation a scheduler of the user's cluster reports", async () => {
    const admin = await createUser(ts);
    const organization = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, organization);
    const user = await createUser(ts);
    await addMember(ts, user, organization, { workspaces: [{ workspace }] });
    const cluster = await createClusterRow(ts, workspace, user);
    const token = ts.server.deps.secrets.decrypt(cluster.tokenBox);
    const report = (computations: unknown[]) =>
      ts.api.post(
        '/api/v2/analytics/metrics',
        { ident: `Scheduler-${cluster.id}`, computations, task_groups: [], n_workers: 1 },
        { headers: { authorization: `Bearer ${token}` } },
      );
    const checklist = async () => (await ts.api.as(user.key).get('/api/v2/interactions/get-started')).body;

    // Gauges alone are no computation.
    expect((await report([])).status).toBe(200);
    expect((await checklist()).data).toEqual({});
    const computation = { id: 'c-1', start: 1_780_000_000, stop: null, n_tasks: 3 };
    expect((await report([computation])).body.computations).toBe(1);
    expect(await checklist()).toEqual({ completed: false, data: { computed: { cluster_id: cluster.id } } });

    // What the console recorded stays, and a later cluster does not move the step.
    await ts.api.as(user.key).put('/api/v2/interactions/get-started', { data: { installed: true } });
    const later = await createClusterRow(ts, workspace, user);
    await ts.api.post(
      '/api/v2/analytics/metrics',
      { ident: `Scheduler-${later.id}`, computations: [computation], task_groups: [] },
      { headers: { authorization: `Bearer ${ts.server.deps.secrets.decrypt(later.tokenBox)}` } },
    );
    expect((await checklist()).data).toEqual({ computed: { cluster_id: cluster.id }, installed: true });
    // The admin who created nothing has nothing ticked.
    expect((await ts.api.as(admin.key).get('/api/v2/interactions/get-started')).body.data).toEqual({});
  });
});

describe('user interactions (staff)', () => {
  it('records where a report came from, its workspace and its error class', async () => {
    expect(errorClassOf('ValueError: n_workers must be >= 0')).toBe('ValueError');
    expect(errorClassOf('distributed.comm.core.CommClosedError: closed')).toBe(
      'distributed.comm.core.CommClosedError',
    );
    expect(errorClassOf('The Python client could not start: boom')).toBeNull();
    expect(errorClassOf(null)).toBeNull();

    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    const slug = (await ts.api.as(user.key).get('/api/v2/user/me')).body.default_account.slug;
    const other = await createUser(ts);
    const otherSlug = (await ts.api.as(other.key).get('/api/v2/user/me')).body.default_account.slug;
    const post = (body: object) => ts.api.as(user.key).post('/api/v2/interactions/interaction', body);
    expect(
      (
        await post({
          action: 'cluster-create',
          version: 1,
          success: false,
          cumulus_version: '0.1.0',
          error_message: 'ValueError: n_workers must be >= 0',
          additional_data: { workspace: slug },
        })
      ).status,
    ).toBe(201);
    // A workspace the user is no member of is not recorded as theirs.
    await post({
      action: 'cluster-create',
      success: true,
      cumulus_version: '0.1.0',
      additional_data: { workspace: otherSlug },
    });
    await post({ action: 'user-source', additional_text: 'a talk' });

    const list = (query: Record<string, string | number | boolean>) =>
      ts.api
        .as(staff.key)
        .get('/api/v2/interactions/user-interactions', { query: { user: user.username, ...query } });
    const all = await list({});
    expect(all.body.count).toBe(3);
    expect(all.body.items.map((i: { action: string }) => i.action)).toEqual([
      'user-source',
      'cluster-create',
      'cluster-create',
    ]);
    expect(all.body.items[0]).toMatchObject({ source: 'console', account: null, client_version: null });
    expect(all.body.items[1]).toMatchObject({ source: 'python', success: true, account: null });
    expect(all.body.items[2]).toMatchObject({
      source: 'python',
      success: false,
      version: 1,
      error_class: 'ValueError',
      account: { slug },
      organization: { id: expect.any(Number) },
      user: { id: user.id, username: user.username, is_staff: false },
      timestamp: expect.stringMatching(/\+00:00$/),
    });

    const count = async (query: Record<string, string | number | boolean>) => (await list(query)).body.count;
    expect(await count({ success: false })).toBe(1);
    expect(await count({ success: true })).toBe(1);
    expect(await count({ source: 'console' })).toBe(1);
    expect(await count({ account: slug })).toBe(1);
    expect(await count({ organization: all.body.items[2].organization.id })).toBe(1);
    expect(await count({ error_class: 'ValueError' })).toBe(1);
    expect(await count({ error_message: 'N_WORKERS' })).toBe(1);
    expect(await count({ action: 'cluster-create', version: 1 })).toBe(1);
    expect(await count({ is_staff: true })).toBe(0);
    expect(await count({ timestamp: new Date(Date.now() + 60_000).toISOString() })).toBe(0);
    expect(await count({ timestamp: '2020-01-01' })).toBe(3);
    expect((await list({ limit: 1, offset: 1 })).body.items.map((i: { id: number }) => i.id)).toEqual([
      all.body.items[1].id,
    ]);
    const bad = await list({ timestamp: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('timestamp');

    const staffApi = ts.api.as(staff.key);
    expect(
      (await staffApi.get('/api/v2/interactions/user-interactions/keys', { query: { query: 'e' } })).body,
    ).toEqual({
      items: ['error_message', 'error_class'],
      count: 2,
    });
    const values = async (key: string, startsWith: string) =>
      (
        await staffApi.get('/api/v2/interactions/user-interactions/key/values', {
          query: { key, starts_with: startsWith },
        })
      ).body.items;
    expect(await values('action', 'cluster-')).toEqual(['cluster-create']);
    expect(await values('user', user.username)).toEqual([user.username]);
    expect(await values('account', slug)).toEqual([slug]);
    expect(await values('error_class', 'Value')).toEqual(['ValueError']);
    expect(await values('version', '1')).toContain('1');
    expect(
      (
        await staffApi.get('/api/v2/interactions/user-interactions/key/values', {
          query: { key: 'password' },
        })
      ).status,
    ).toBe(400);

    const hello = (await staffApi.get('/api/v2/interactions/user-interactions/hello')).body;
    expect(hello).toMatchObject({ detail: `Hello, ${staff.username}.`, latest: expect.any(String) });
    expect(hello.total).toBeGreaterThanOrEqual(3);
    expect(hello.failures_last_day).toBeGreaterThanOrEqual(1);
    // Users read none of it.
    expect((await ts.api.as(user.key).get('/api/v2/interactions/user-interactions')).status).toBe(403);
  });
});

describe('banners', () => {
  it('lists only banners whose window includes now', async () => {
    const user = await createUser(ts);
    const now = Date.now();
    await ts.server.deps.db.insert(banners).values([
      { message: 'live', start: new Date(now - 60_000), end: new Date(now + 60_000) },
      { message: 'past', start: new Date(now - 120_000), end: new Date(now - 60_000) },
      { message: 'future', start: new Date(now + 60_000) },
      { message: 'open-ended', start: new Date(now - 60_000) },
    ]);
    const res = await ts.api.as(user.key).get('/api/v1/banners');
    const messages = res.body.results.map((b: { message: string }) => b.message);
    expect(messages).toEqual(expect.arrayContaining(['live', 'open-ended']));
    expect(messages).not.toContain('past');
    expect(messages).not.toContain('future');
    expect(res.body.results[0].start).toMatch(/\+00:00$/);
  });
});
