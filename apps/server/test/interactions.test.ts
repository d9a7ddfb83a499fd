import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banners } from '../src/db/schema/index.js';
import { createUser } from './helpers/factories.js';
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
