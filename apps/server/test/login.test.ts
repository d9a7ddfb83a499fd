import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FAILURE_LIMIT, ADDRESS_FAILURE_LIMIT } from '../src/domains/identity/auth/lockout.js';
import { createUser, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

/** Each test logs in from its own address, so address lockouts of one do not touch another. */
let hostCounter = 10;
const newAddress = () => `10.1.${Math.floor(Math.random() * 250)}.${hostCounter++}`;

describe('login', () => {
  it('accepts the username or the email, in the username field or the email field', async () => {
    const user = await createUser(ts);
    const remoteAddress = newAddress();
    for (const body of [
      { username: user.username, password: user.password },
      { email: user.email, password: user.password },
      { username: user.email, password: user.password },
      { username: user.username.toUpperCase(), password: user.password },
    ]) {
      const res = await ts.api.post('/api/v1/auth/login/', body, { remoteAddress });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.key).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('answers wrong credentials and unknown users alike', async () => {
    const user = await createUser(ts);
    const remoteAddress = newAddress();
    const wrong = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: 'nope-nope-nope' },
      { remoteAddress },
    );
    const unknown = await ts.api.post(
      '/api/v1/auth/login/',
      { username: uniq(), password: 'nope-nope-nope' },
      { remoteAddress },
    );
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    }
    const empty = await ts.api.post('/api/v1/auth/login/', { password: 'x' }, { remoteAddress });
    expect(empty.status).toBe(400);
    expect(empty.body.non_field_errors).toHaveLength(1);
  });

  it('locks an account after repeated failures, until staff unlock it', async () => {
    const user = await createUser(ts);
    const staff = await createUser(ts, { staff: true });
    const attempt = (password: string) =>
      ts.api.post(
        '/api/v1/auth/login/',
        { username: user.username, password },
        { remoteAddress: newAddress() },
      );
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++)
      expect((await attempt('wrong-password-1')).status).toBe(400);

    // Locked, even for the right password and from a fresh address.
    const locked = await attempt(user.password);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('LOGIN_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    // Only staff may unlock.
    const byUser = await ts.api.as(user.key).post(`/api/v2/staff/users/${user.id}/unlock`, {});
    expect(byUser.status).toBe(403);
    const unlock = await ts.api.as(staff.key).post(`/api/v2/staff/users/${user.id}/unlock`, {});
    expect(unlock.status).toBe(200);
    expect((await attempt(user.password)).status).toBe(200);
  });

  it('locks an address that fails across many accounts', async () => {
    const remoteAddress = newAddress();
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) {
      await ts.api.post(
        '/api/v1/auth/login/',
        { username: uniq(), password: 'guess-guess-1' },
        { remoteAddress },
      );
    }
    const user = await createUser(ts);
    const res = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: user.password },
      { remoteAddress },
    );
    expect(res.status).toBe(429);
    const elsewhere = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: user.password },
      { remoteAddress: newAddress() },
    );
    expect(elsewhere.status).toBe(200);
  });

  it('forgets failures once the window has passed', async () => {
    const user = await createUser(ts);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) {
      await ts.api.post(
        '/api/v1/auth/login/',
        { username: user.username, password: 'bad-bad-bad-1' },
        { remoteAddress: newAddress() },
      );
    }
    const { loginFailures } = await import('../src/db/schema/index.js');
    const { eq } = await import('drizzle-orm');
    await ts.server.deps.db
      .update(loginFailures)
      .set({ created: new Date(Date.now() - 16 * 60_000) })
      .where(eq(loginFailures.subject, `user:${user.id}`));
    const res = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: user.password },
      { remoteAddress: newAddress() },
    );
    expect(res.status).toBe(200);
  });

  it('refuses inactive users', async () => {
    const user = await createUser(ts);
    const { users } = await import('../src/db/schema/index.js');
    const { eq } = await import('drizzle-orm');
    await ts.server.deps.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: user.password },
      { remoteAddress: newAddress() },
    );
    expect(res.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);
  });

  it('needs credentials for user calls and rejects malformed ones', async () => {
    const none = await ts.api.get('/api/v2/user/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      detail: 'Authentication credentials were not provided.',
      code: 'NOT_AUTHENTICATED',
    });
    const garbage = await ts.api.get('/api/v2/user/me', { headers: { authorization: 'Basic abc' } });
    expect(garbage.status).toBe(401);
    expect(garbage.headers['content-type']).toMatch(/^application\/json/);
  });
});
