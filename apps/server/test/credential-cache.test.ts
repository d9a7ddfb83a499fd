import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeCache } from '../src/db/cache.js';
import { ChangeFeed, LISTENER_NAME } from '../src/db/changes.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { apiTokens, users } from '../src/db/schema/index.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser, PASSWORD, type TestUser } from './helpers/factories.js';
import { seedRunningCluster } from './helpers/running-cluster.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('ChangeCache', () => {
  const cache = (feed = new ChangeFeed(true), ttlMs = 60_000, maxEntries = 100) =>
    ({ feed, cache: new ChangeCache<string>(feed, { ttlMs, maxEntries }) }) as const;

  it('drops an entry when a row it was read from changes, and only then', () => {
    const { feed, cache: c } = cache();
    c.set('a', 'A', ['users:1', 'api_tokens:7'], c.mark());
    c.set('b', 'B', ['users:2'], c.mark());
    feed.receive('users:3');
    expect([c.get('a'), c.get('b')]).toEqual(['A', 'B']);
    feed.receive('api_tokens:7');
    expect([c.get('a'), c.get('b')]).toEqual([undefined, 'B']);
  });

  it('does not keep a value read while a change arrived', () => {
    const { feed, cache: c } = cache();
    const mark = c.mark();
    feed.receive('users:1');
    c.set('a', 'read before the change', ['users:1'], mark);
    expect(c.get('a')).toBeUndefined();
  });

  it('answers nothing while the feed is not live, and forgets everything when it stops', () => {
    const { feed, cache: c } = cache(new ChangeFeed(false));
    c.set('a', 'A', [], c.mark());
    expect(c.get('a')).toBeUndefined();
    feed.setLive(true);
    c.set('a', 'A', [], c.mark());
    expect(c.get('a')).toBe('A');
    feed.setLive(false);
    feed.setLive(true);
    expect(c.get('a')).toBeUndefined();
  });

  it('keeps entries for their time at most, and the newest when full', async () => {
    const { cache: short } = cache(undefined, 20);
    short.set('a', 'A', [], short.mark());
    await new Promise((r) => setTimeout(r, 40));
    expect(short.get('a')).toBeUndefined();
    const { cache: small } = cache(undefined, 60_000, 2);
    for (const key of ['a', 'b', 'c']) small.set(key, key, [], small.mark());
    expect([small.get('a'), small.get('b'), small.get('c')]).toEqual([undefined, 'b', 'c']);
  });
});

/** A fresh API token of `user`, made through the API. */
async function newToken(ts: TestServer, user: TestUser): Promise<{ token: string; identifier: string }> {
  const res = await ts.api.as(user.key).post('/api/v1/api-tokens/', { label: 'cache' });
  expect(res.status).toBe(201);
  return res.body;
}

/** Asks twice, so the second answer comes from memory if anything does. */
async function warm(ts: TestServer, credentials: string, url = '/api/v2/user/me'): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await ts.api.as(credentials).get(url)).status).toBe(200);
}

/** A running cluster of `user`, seeded (no backend runs it). */
const runningCluster = (ts: TestServer, user: TestUser) => seedRunningCluster(ts.server.deps.db, user.id);

/** Stops the cluster as the reconciler's last step leaves it: its token stops working. */
const stopCluster = (ts: TestServer, id: number) =>
  ts.server.deps.db.execute(
    sql`update clusters set desired_state = 'stopped', state = 'stopped' where id = ${id}`,
  );

describe('credentials and user/me answered from memory, on one server', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(() => ts?.close());

  it('refuses a revoked token, a logged-out session and a changed password on the next request', async () => {
    const user = await createUser(ts);
    const { token, identifier } = await newToken(ts, user);
    await warm(ts, token);
    await warm(ts, user.key);
    expect((await ts.api.as(user.key).delete(`/api/v1/api-tokens/${identifier}/revoke`)).status).toBeLessThan(
      300,
    );
    expect((await ts.api.as(token).get('/api/v2/user/me')).status).toBe(401);

    await ts.api.as(user.key).post('/api/v1/auth/logout/', {});
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);

    const login = await ts.api.post('/api/v1/auth/login/', { username: user.username, password: PASSWORD });
    const key = login.body.key as string;
    await warm(ts, key);
    const changed = await ts.api.as(key).post('/api/v1/auth/password/change/', {
      new_password1: 'Other-passphrase-43',
      new_password2: 'Other-passphrase-43',
    });
    expect(changed.status).toBe(200);
    expect((await ts.api.as(key).get('/api/v2/user/me')).status).toBe(401);
  });

  it('follows is_active and is_staff the moment they are written, however they are written', async () => {
    const user = await createUser(ts);
    const { token } = await newToken(ts, user);
    const { db } = ts.server.deps;
    expect((await ts.api.as(token).get('/api/v2/staff/emails')).status).toBe(403);
    await db.update(users).set({ isStaff: true }).where(eq(users.id, user.id));
    expect((await ts.api.as(token).get('/api/v2/staff/emails')).status).toBe(200);
    await db.execute(sql`update users set is_staff = false where id = ${user.id}`);
    expect((await ts.api.as(token).get('/api/v2/staff/emails')).status).toBe(403);

    await warm(ts, token);
    await db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect((await ts.api.as(token).get('/api/v2/user/me')).status).toBe(401);
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);
  });

  it('shows every edit of what user/me answers at once', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const before = (await api.get('/api/v2/user/me')).body;
    expect(before.default_account).not.toBeNull();
    expect((await api.patch('/api/v1/users/me/profile/', { full_name: 'Renamed Person' })).status).toBe(200);
    expect((await api.get('/api/v2/user/me')).body.full_name).toBe('Renamed Person');
    const { db } = ts.server.deps;
    await db.execute(sql`update accounts set name = 'renamed-ws' where id = ${before.default_account.id}`);
    expect((await api.get('/api/v2/user/me')).body.default_account.name).toBe('renamed-ws');
    const org = before.default_account.organization.id;
    await db.execute(sql`update organizations set name = 'Renamed Org' where id = ${org}`);
    expect((await api.get('/api/v2/user/me')).body.default_account.organization.name).toBe('Renamed Org');
  });

  it('writes last_used after answering, at most once a minute per token', async () => {
    const user = await createUser(ts);
    const { token, identifier } = await newToken(ts, user);
    const lastUsed = async () =>
      (await ts.server.deps.db.select().from(apiTokens).where(eq(apiTokens.identifier, identifier)))[0]!
        .lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await warm(ts, token);
    await expect.poll(lastUsed).not.toBeNull();
    const first = await lastUsed();
    await warm(ts, token);
    expect(await lastUsed()).toEqual(first);
  });
  it("refuses a stopped cluster's token at its next call, though the token was answered from memory", async () => {
    const cluster = await runningCluster(ts, await createUser(ts));
    const agent = ts.api.as(cluster.token);
    for (let i = 0; i < 2; i++) expect((await agent.get(cluster.heartbeat)).body.stop).toBe(false);
    await stopCluster(ts, cluster.id);
    const refused = await agent.get(cluster.heartbeat);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ detail: 'Invalid token.', code: 'API_AUTHENTICATION_ERROR' });
  });
});

describe('two servers on one database', () => {
  let a: TestServer;
  let b: TestServer;
  let shared: Database & { url?: string };
  let ofB: Database | undefined;
  beforeAll(async () => {
    shared = await openTestDatabase();
    // On PostgreSQL each server has its own pool and listener, as replicas do; PGlite is one process.
    ofB = shared.url ? await openDatabase({ databaseUrl: shared.url, poolSize: 2 }) : undefined;
    a = await startTestServer({}, { database: shared });
    b = await startTestServer({}, { database: ofB ?? shared });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await ofB?.close();
    await shared?.close();
  });

  /** Asks b twice once its cache may answer, so the second answer comes from memory. */
  async function warmB(credentials: string): Promise<void> {
    await expect.poll(() => b.server.deps.changes.live).toBe(true);
    await warm(b, credentials);
  }

  /** Milliseconds until `credentials` are refused by server b (polling every 20 ms), at most 5 s. */
  async function refusedByB(credentials: string): Promise<number> {
    const started = performance.now();
    while (performance.now() - started < 5000) {
      if ((await b.api.as(credentials).get('/api/v2/user/me')).status === 401)
        return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
    return Number.POSITIVE_INFINITY;
  }

  it('refuses a token revoked on the other server within a second', async () => {
    const user = await createUser(a);
    const { token, identifier } = await newToken(a, user);
    await warmB(token);
    expect((await a.api.as(user.key).delete(`/api/v1/api-tokens/${identifier}/revoke`)).status).toBeLessThan(
      300,
    );
    expect(await refusedByB(token)).toBeLessThan(1000);
  });

  it('refuses a user deactivated on the other server within a second', async () => {
    const user = await createUser(a);
    const { token } = await newToken(a, user);
    await warmB(token);
    await warmB(user.key);
    await a.server.deps.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect(await refusedByB(token)).toBeLessThan(1000);
    expect(await refusedByB(user.key)).toBeLessThan(1000);
  });

  it.runIf(process.env.DATABASE_URL)('answers from the database while its listener is down', async () => {
    const user = await createUser(a);
    const { token, identifier } = await newToken(a, user);
    await warmB(token);
    const admin = new pg.Client({ connectionString: shared.url });
    await admin.connect();
    try {
      // Kill the listeners of this database; the feed stops being live until they reconnect.
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
        [LISTENER_NAME],
      );
      await expect.poll(() => b.server.deps.changes.live, { interval: 5 }).toBe(false);
      await admin.query('update api_tokens set revoked_at = now() where identifier = $1', [identifier]);
      expect((await b.api.as(token).get('/api/v2/user/me')).status).toBe(401);
      await expect.poll(() => b.server.deps.changes.live, { timeout: 10_000 }).toBe(true);
    } finally {
      await admin.end();
    }
  });
  it("refuses a cluster's token on the other server within a second of the cluster stopping", async () => {
    const cluster = await runningCluster(a, await createUser(a));
    await expect.poll(() => b.server.deps.changes.live).toBe(true);
    for (let i = 0; i < 2; i++)
      expect((await b.api.as(cluster.token).get(cluster.heartbeat)).status).toBe(200);
    await stopCluster(a, cluster.id);
    const started = performance.now();
    let status = 200;
    while (status !== 401 && performance.now() - started < 5000) {
      status = (await b.api.as(cluster.token).get(cluster.heartbeat)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
