import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../src/db/schema/index.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

describe('API tokens', () => {
  it('shows the secret once, stores only its hash, and lists newest first, page by page', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/api/v1/api-tokens/', { label: `t${i}` });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ label: `t${i}`, expiry: null, expired: false, revoked: false });
      expect(res.body.created).toMatch(/\+00:00$/);
      made.push(res.body.identifier);
      const [row] = await ts.server.deps.db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.identifier, res.body.identifier));
      expect(row!.secretHash).not.toContain(res.body.token.split('-')[1]);
    }
    const first = await api.get('/api/v1/api-tokens/', { query: { page_size: 2 } });
    expect(first.body.count).toBe(3);
    expect(first.body.results.map((t: { identifier: string }) => t.identifier)).toEqual([made[2], made[1]]);
    expect(first.body.results[0].token).toBeUndefined();
    expect(first.body.next).toMatch(/page=2/);
    expect(first.body.previous).toBeNull();
    const second = await api.get(new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(second.body.results.map((t: { identifier: string }) => t.identifier)).toEqual([made[0]]);
    expect(second.body.next).toBeNull();

    // Others never see them.
    const other = await createUser(ts);
    expect((await ts.api.as(other.key).get('/api/v1/api-tokens/')).body.count).toBe(0);
    expect((await ts.api.as(other.key).delete(`/api/v1/api-tokens/${made[0]}/revoke`)).status).toBe(404);
  });

  it('sets the has-api-key flag when a token is created', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    expect((await api.get('/api/v2/interactions/flag/has-api-key')).body).toEqual({
      name: 'has-api-key',
      completed: false,
    });
    await api.post('/api/v1/api-tokens/', {});
    expect((await api.get('/api/v2/interactions/flag/has-api-key')).body.completed).toBe(true);
  });

  it('refuses expired tokens and a past expiry', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const created = await api.post('/api/v1/api-tokens/', { label: 'short-lived', expiry: soon });
    expect(created.body.expiry).toMatch(/\+00:00$/);
    expect((await ts.api.as(created.body.token).get('/api/v2/user/me')).status).toBe(200);
    await ts.server.deps.db
      .update(apiTokens)
      .set({ expiry: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.identifier, created.body.identifier));
    expect((await ts.api.as(created.body.token).get('/api/v2/user/me')).status).toBe(401);
    const listed = await api.get('/api/v1/api-tokens/');
    expect(listed.body.results[0]).toMatchObject({ identifier: created.body.identifier, expired: true });

    const past = await api.post('/api/v1/api-tokens/', { expiry: '2001-01-01' });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ expiry: ['Expiry must be in the future.'] });
    expect((await api.post('/api/v1/api-tokens/', { expiry: 'tomorrow' })).body).toEqual({
      expiry: ['Enter a valid date/time.'],
    });
  });

  it('rejects a token whose secret does not match its identifier', async () => {
    const user = await createUser(ts);
    const created = await ts.api.as(user.key).post('/api/v1/api-tokens/', {});
    const forged = `${created.body.identifier}-${'0'.repeat(48)}`;
    expect((await ts.api.as(forged).get('/api/v2/user/me')).status).toBe(401);
  });

  it('accepts either prefix for either kind of credential', async () => {
    const user = await createUser(ts);
    const token = (await ts.api.as(user.key).post('/api/v1/api-tokens/', {})).body.token;
    for (const authorization of [
      `Token ${token}`,
      `ApiToken ${token}`,
      `Token ${user.key}`,
      `ApiToken ${user.key}`,
    ]) {
      expect(
        (await ts.api.get('/api/v2/user/me', { headers: { authorization } })).status,
        authorization,
      ).toBe(200);
    }
  });
});

describe('terminal sign-in', () => {
  const activate = (key: string | null, identifier: string, user_code?: string) =>
    (key ? ts.api.as(key) : ts.api).patch(
      `/api/v1/api-tokens/${identifier}/activate/`,
      user_code === undefined ? {} : { user_code },
    );

  it('accepts JSON as well as form bodies and answers identifier, token and a user code', async () => {
    const json = await ts.api.post('/api/v1/api-tokens-no-user/', { label: 'me@box' });
    expect(json.status).toBe(201);
    expect(json.body.token.startsWith(`${json.body.identifier}-`)).toBe(true);
    expect(json.body.label).toBe('me@box');
    expect(json.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    const empty = await ts.api.post('/api/v1/api-tokens-no-user/');
    expect(empty.status).toBe(201);
    expect(empty.body.user_code).not.toBe(json.body.user_code);
  });

  it('authenticates nothing while pending and cannot be activated after 10 minutes', async () => {
    const user = await createUser(ts);
    const pending = await ts.api.request('POST', '/api/v1/api-tokens-no-user/', { form: { label: 'late' } });
    expect((await ts.api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(401);
    await ts.server.deps.db
      .update(apiTokens)
      .set({ created: new Date(Date.now() - 11 * 60_000) })
      .where(eq(apiTokens.identifier, pending.body.identifier));
    const late = await activate(user.key, pending.body.identifier, pending.body.user_code);
    expect(late.status).toBe(404);
    expect((await ts.api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(401);
  });

  it('approves only with the code the terminal printed; a wrong code is refused and says so', async () => {
    const user = await createUser(ts);
    const pending = await ts.api.post('/api/v1/api-tokens-no-user/', { label: 'laptop' });
    // The link alone (what a phishing mail would carry) approves nothing.
    const none = await activate(user.key, pending.body.identifier);
    expect(none.status).toBe(400);
    const wrong = await activate(user.key, pending.body.identifier, 'BBBB-BBBB');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      user_code: ['That code does not match the one shown in your terminal (4 tries left).'],
    });
    expect((await ts.api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(401);
    // Typed as people type it: lower case, without the dash, with spaces.
    const typed = ` ${pending.body.user_code.replace('-', '').toLowerCase()} `;
    const right = await activate(user.key, pending.body.identifier, typed);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ identifier: pending.body.identifier, revoked: false });
    const me = await ts.api.as(pending.body.token).get('/api/v2/user/me');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(user.username);
  });

  it('stops after five codes: the right code after five wrong ones approves nothing', async () => {
    const user = await createUser(ts);
    const pending = await ts.api.post('/api/v1/api-tokens-no-user/', { label: 'guessed' });
    const lefts = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await activate(user.key, pending.body.identifier, 'ZZZZ-ZZZZ');
      expect(wrong.status).toBe(400);
      lefts.push(wrong.body.user_code[0]);
    }
    expect(lefts.slice(3)).toEqual([
      'That code does not match the one shown in your terminal (1 try left).',
      'Too many wrong codes: this sign-in request is cancelled. Run cumulus login again.',
    ]);
    const late = await activate(user.key, pending.body.identifier, pending.body.user_code);
    expect(late.status).toBe(400);
    expect(late.body.user_code).toEqual([
      'Too many wrong codes: this sign-in request is cancelled. Run cumulus login again.',
    ]);
    expect((await ts.api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(401);
  });

  it('is activated once, by one user', async () => {
    const [alice, bob] = [await createUser(ts), await createUser(ts)];
    const pending = await ts.api.post('/api/v1/api-tokens-no-user/', { label: 'x' });
    const code = pending.body.user_code;
    expect((await activate(alice.key, pending.body.identifier, code)).status).toBe(200);
    expect((await activate(bob.key, pending.body.identifier, code)).status).toBe(404);
    expect((await ts.api.as(pending.body.token).get('/api/v2/user/me')).body.username).toBe(alice.username);
    // It now is one of Alice's tokens, listed and revocable like the others.
    const listed = await ts.api.as(alice.key).get('/api/v1/api-tokens/');
    expect(listed.body.results.map((t: { identifier: string }) => t.identifier)).toContain(
      pending.body.identifier,
    );
    expect((await activate(pending.body.token, pending.body.identifier, code)).status).toBe(404);
    expect((await activate(null, pending.body.identifier, code)).status).toBe(401);
  });
});
