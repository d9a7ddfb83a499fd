import { count } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { installAuth } from '../src/http/auth.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

describe('errors are JSON', () => {
  it('answers unknown API routes with a JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/nothing-here'],
      ['POST', '/api/v1/nope/'],
      ['GET', '/users/x/get_token'],
    ] as const) {
      const res = await ts.api.request(method, url);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'NOT_FOUND' });
    }
  });

  it('answers bad JSON, wrong types and overlong fields with a clear 400 and writes nothing', async () => {
    const before = (await ts.server.deps.db.select({ n: count() }).from(users))[0]!.n;
    const broken = await ts.api.post('/api/v1/registration/', '{"username": "x",', {
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('PARSE_ERROR');

    const types = await ts.api.post('/api/v1/registration/', {
      username: 12,
      email: ['a@b.co'],
      password1: true,
      password2: null,
      full_name: {},
    });
    expect(types.status).toBe(400);
    expect(Object.keys(types.body).sort()).toEqual([
      'email',
      'full_name',
      'password1',
      'password2',
      'username',
    ]);

    const long = await ts.api.post('/api/v1/auth/login/', { username: 'x'.repeat(300), password: 'p' });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ username: ['Ensure this field has no more than 254 characters.'] });

    const after = (await ts.server.deps.db.select({ n: count() }).from(users))[0]!.n;
    expect(after).toBe(before);
  });

  it('hides server failures behind a generic message, never a stack trace', async () => {
    const res = await ts.api.get('/api/v2/test/raise-exception/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'A server error occurred.', code: 'SERVER_ERROR' });
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    const own = await ts.api.get('/api/v2/test/raise-cumulus-exception/');
    expect(own.status).toBe(400);
    expect(own.body.code).toBe('CUMULUS_EXCEPTION');
  });

  it('treats a malformed path id as not found', async () => {
    const user = await createUser(ts);
    const res = await ts.api
      .as(user.key)
      .patch('/api/v1/users/abc/access_token/', { git_access_token: null });
    expect(res.status).toBe(404);
  });

  it('refuses unsupported media types', async () => {
    const res = await ts.api.post('/api/v1/auth/login/', 'username=a', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('CSRF', () => {
  const csrfCookie = (res: { headers: Record<string, unknown> }) => {
    const header = res.headers['set-cookie'];
    const all = Array.isArray(header) ? header : [String(header)];
    return /csrftoken=([0-9a-f]+)/.exec(all.join(';'))?.[1];
  };

  it('plants a readable cookie and requires its echo on unsafe browser requests', async () => {
    const user = await createUser(ts);
    const first = await ts.api.get('/api/v2/test/pagination/');
    const cookie = csrfCookie(first)!;
    expect(cookie).toMatch(/^[0-9a-f]{32}$/);
    expect(String(first.headers['set-cookie'])).not.toMatch(/HttpOnly/i);

    const browser = { origin: 'http://cumulus.test', cookie: `csrftoken=${cookie}` };
    const missing = await ts.api.as(user.key).post('/api/v1/api-tokens/', {}, { headers: browser });
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('CSRF_FAILED');
    const wrong = await ts.api
      .as(user.key)
      .post('/api/v1/api-tokens/', {}, { headers: { ...browser, 'x-csrftoken': 'f'.repeat(32) } });
    expect(wrong.status).toBe(403);
    const right = await ts.api
      .as(user.key)
      .post('/api/v1/api-tokens/', {}, { headers: { ...browser, 'x-csrftoken': cookie } });
    expect(right.status).toBe(201);
    // Unauthenticated browser forms are covered too.
    const login = await ts.api.post(
      '/api/v1/auth/login/',
      { username: user.username, password: user.password },
      {
        headers: { 'sec-fetch-site': 'same-origin' },
      },
    );
    expect(login.status).toBe(403);
  });

  it('lets token clients (Python, curl) call without the cookie dance', async () => {
    const user = await createUser(ts);
    const res = await ts.api.as(user.key).post('/api/v1/api-tokens/', {});
    expect(res.status).toBe(201);
    // A program with an API token never echoes a CSRF cookie: none is planted for it.
    const me = await ts.api.get('/api/v2/user/me', {
      headers: { authorization: `ApiToken ${res.body.token}` },
    });
    expect(me.status).toBe(200);
    expect(csrfCookie(me)).toBeUndefined();
    // The console's session key still gets one.
    expect(csrfCookie(await ts.api.as(user.key).get('/api/v2/user/me'))).toMatch(/^[0-9a-f]{32}$/);
  });

  it('plants no cookie on health checks, which load balancers make', async () => {
    const res = await ts.api.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('the contract', () => {
  it('publishes the OpenAPI document of every route', async () => {
    const res = await ts.api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/login/',
        '/api/v2/user/me',
        '/api/v1/api-tokens/{identifier}/revoke',
      ]),
    );
    const login = res.body.paths['/api/v1/auth/login/'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    expect(login.responses).toHaveProperty('200');
  });

  it('refuses to start with a route that declares no auth mode', async () => {
    const app = Fastify();
    installAuth(app, { db: ts.server.deps.db });
    expect(() => app.get('/api/v2/forgot-auth', async () => ({}))).toThrow(/declares no auth mode/);
    await app.close();
  });

  it('answers every response with a request id and reports database health', async () => {
    const res = await ts.api.get('/api/health', { headers: { 'x-request-id': 'trace-me-123' } });
    expect(res.headers['x-request-id']).toBe('trace-me-123');
    expect(res.body).toMatchObject({ status: 'ok', db: 'ok' });
    const generated = await ts.api.get('/api/v1/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('pages the v2 test list by offset and limit', async () => {
    const res = await ts.api.get('/api/v2/test/pagination/', { query: { offset: 998, limit: 5 } });
    expect(res.body).toEqual({ items: [998, 999], count: 1000 });
    expect((await ts.api.get('/api/v2/test/pagination/', { query: { limit: 100000 } })).status).toBe(400);
  });
});

describe('sign-in providers', () => {
  it('say plainly that GitHub, Google and SSO are not configured', async () => {
    const github = await ts.api.post('/users/github/get_token', { code: 'abc', state: 'xyz' });
    expect(github.status).toBe(400);
    expect(github.body.non_field_errors).toEqual(['Sign-in with GitHub is not configured on this server.']);
    expect((await ts.api.post('/users/myspace/get_token', { code: 'abc', state: 'xyz' })).status).toBe(404);
    const sso = await ts.api.get('/api/v2/workos/success', { query: { code: 'abc', state: 'xyz' } });
    expect(sso.body.code).toBe('PROVIDER_NOT_CONFIGURED');
    const login = await ts.api.get('/api/v2/workos/login');
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('/login?open=true&sso=not-configured&provider=sso');
  });
});
