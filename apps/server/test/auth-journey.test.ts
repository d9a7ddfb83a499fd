import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { linkIn } from './helpers/smtp.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

describe('a new user, from sign-up to a revoked API token', () => {
  it('signs up, verifies by the mailed link, logs in, uses tokens and revokes them', async () => {
    const { api, smtp } = ts;
    const username = uniq('jo');
    const email = `${username}@Example.com`;
    const password = 'Correct-horse-battery-9';

    const signUp = await api.post('/api/v1/registration/', {
      username,
      email,
      password1: password,
      password2: password,
      full_name: 'Jo Journey',
      preferred_name: 'Jo',
      captcha_token: null,
    });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toEqual({ detail: 'Verification e-mail sent.' });

    // Not verified yet: the right password still cannot log in.
    const early = await api.post('/api/v1/auth/login/', { username, password });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ non_field_errors: ['E-mail is not verified.'] });

    const mail = await smtp.waitFor(email.toLowerCase(), (m) => m.subject.includes('Confirm'));
    const link = linkIn(mail, /http:\/\/cumulus\.test\/verify-email-confirm\/[0-9a-f]+/);
    const key = link.split('/').pop()!;

    expect((await api.post('/api/v1/registration/verify-email/', { key })).body).toEqual({ detail: 'ok' });
    // The key is single use: a second click only confirms what is done.
    expect((await api.post('/api/v1/registration/verify-email/', { key })).body).toEqual({
      detail: 'E-mail already verified.',
    });
    const bad = await api.post('/api/v1/registration/verify-email/', { key: 'f'.repeat(64) });
    expect(bad.status).toBe(404);
    expect(bad.body.detail).toBe('Not found.');

    // An entry with an at-sign is an email, in any case.
    const login = await api.post('/api/v1/auth/login/', { username: email.toUpperCase(), password });
    expect(login.status).toBe(200);
    const session = login.body.key as string;
    expect(session).toMatch(/^[0-9a-f]{40}$/);

    const me = await api.as(session).get('/api/v2/user/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username,
      email: email.toLowerCase(),
      full_name: 'Jo Journey',
      preferred_name: 'Jo',
      has_usable_password: true,
      is_staff: false,
      default_account: { slug: username, name: username },
      default_organization: { name: username, is_personal: true },
    });

    const memberships = await api.as(session).get('/api/v2/user/me/memberships');
    expect(memberships.body).toEqual([
      expect.objectContaining({
        account: expect.objectContaining({ slug: username, name: username }),
        is_admin: true,
        is_default_account: true,
      }),
    ]);

    // Create a token in the console, call the API with it, revoke it: it stops working.
    const created = await api.as(session).post('/api/v1/api-tokens/', { label: 'laptop' });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect(token.startsWith(`${created.body.identifier}-`)).toBe(true);
    expect((await api.as(token).get('/api/v2/user/me')).body.username).toBe(username);

    // Terminal sign-in: a pending token, approved by the signed-in user, then usable.
    const pending = await api.request('POST', '/api/v1/api-tokens-no-user/', {
      form: { label: 'jo@laptop' },
    });
    expect(pending.status).toBe(201);
    expect((await api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(401);
    const activated = await api.as(session).patch(`/api/v1/api-tokens/${pending.body.identifier}/activate/`, {
      user_code: pending.body.user_code,
    });
    expect(activated.status).toBe(200);
    expect((await api.as(pending.body.token).get('/api/v2/user/me')).body.username).toBe(username);

    const revoked = await api.as(session).delete(`/api/v1/api-tokens/${created.body.identifier}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(true);
    expect((await api.as(token).get('/api/v2/user/me')).status).toBe(401);
    expect((await api.as(pending.body.token).get('/api/v2/user/me')).status).toBe(200);

    // Logout ends the session key.
    expect((await api.as(session).post('/api/v1/auth/logout/')).status).toBe(200);
    const after = await api.as(session).get('/api/v2/user/me');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Invalid token.', code: 'API_AUTHENTICATION_ERROR' });
  });
});
