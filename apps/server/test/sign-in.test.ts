import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityLinkTokens, users } from '../src/db/schema/index.js';
import { openSession } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { PYTHON_DIR } from '../src/paths.js';
import { createUser, PASSWORD, uniq } from './helpers/factories.js';
import { FakeGitHub } from './helpers/github-fake.js';
import { followToCallback, type TestAccount, TestOidcProvider } from './helpers/oidc-provider.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { linkIn } from './helpers/smtp.js';
import { waitFor } from './helpers/wait.js';

// Sign-in through SSO (OpenID Connect), Google and GitHub against real local providers: the
// `oidc-provider` package for SSO and Google, a stand-in speaking GitHub's OAuth and REST wire.
const PUBLIC = 'http://cumulus.test';
const sso = new TestOidcProvider({
  clientId: 'cumulus-sso',
  clientSecret: 'sso-secret-0123456789',
  redirectUris: [`${PUBLIC}/auth/sso/callback`],
});
const google = new TestOidcProvider({
  clientId: 'cumulus-google',
  clientSecret: 'google-secret-0123456789',
  redirectUris: [`${PUBLIC}/auth/google/callback`],
});
const github = new FakeGitHub({ clientId: 'cumulus-github', clientSecret: 'github-secret-0123456789' });
let ts: TestServer;

beforeAll(async () => {
  await Promise.all([sso.start(), google.start(), github.start()]);
  ts = await startTestServer({
    CUMULUS_OIDC_ISSUER: sso.issuer,
    CUMULUS_OIDC_CLIENT_ID: sso.client.clientId,
    CUMULUS_OIDC_CLIENT_SECRET: sso.client.clientSecret,
    CUMULUS_OIDC_NAME: 'Acme Okta',
    CUMULUS_GOOGLE_ISSUER: google.issuer,
    CUMULUS_GOOGLE_CLIENT_ID: google.client.clientId,
    CUMULUS_GOOGLE_CLIENT_SECRET: google.client.clientSecret,
    CUMULUS_GITHUB_CLIENT_ID: github.client.clientId,
    CUMULUS_GITHUB_CLIENT_SECRET: github.client.clientSecret,
    CUMULUS_GITHUB_URL: github.url,
    CUMULUS_GITHUB_API_URL: github.apiUrl,
  });
});
afterAll(async () => {
  await ts?.close();
  await Promise.all([sso.stop(), google.stop(), github.stop()]);
});

const cookieOf = (setCookie: unknown, name: string): string => {
  const lines = Array.isArray(setCookie) ? setCookie : [String(setCookie ?? '')];
  const line = lines.find((l: string) => l.startsWith(`${name}=`));
  return line ? (line.split(';')[0] as string) : '';
};

/** Starts a sign-in as the browser does: the server's login path, answered with a redirect and a cookie. */
async function begin(path: string) {
  const res = await ts.api.get(path);
  expect(res.status).toBe(302);
  return {
    authorize: String(res.headers.location),
    cookie: cookieOf(res.headers['set-cookie'], 'cumulus_sign_in'),
  };
}

/** The whole SSO round trip for `account`; returns the exchange's answer and what was sent. */
async function ssoSignIn(account: TestAccount, extraCookie = '') {
  sso.nextAccount = account;
  const flow = await begin('/api/v2/workos/login');
  const back = await followToCallback(flow.authorize, `${PUBLIC}/auth/sso/callback`);
  const query = Object.fromEntries(back.searchParams);
  const cookie = [flow.cookie, extraCookie].filter(Boolean).join('; ');
  const res = await ts.api.get('/api/v2/workos/success', { query, headers: { cookie } });
  return { res, query, cookie };
}

const account = (over: Partial<TestAccount> = {}): TestAccount => {
  const name = uniq();
  return {
    sub: `sub-${name}`,
    email: `${name}@corp.example`,
    email_verified: true,
    name: 'Ada Lovelace',
    preferred_username: name,
    ...over,
  };
};

const userByEmail = async (email: string) =>
  (await ts.server.deps.db.select().from(users).where(sql`lower(${users.email}) = ${email}`))[0];

describe('the login page offers what is configured', () => {
  it('lists Google, GitHub and SSO (with its configured name) in the deployment', async () => {
    const res = await ts.api.get('/api/v2/deployment');
    expect(res.body.sign_in_providers).toEqual([
      { id: 'google', name: 'Google', authorize_url: '/api/v2/auth/google/login' },
      { id: 'github', name: 'GitHub', authorize_url: '/api/v2/auth/github/login' },
      { id: 'sso', name: 'Acme Okta', authorize_url: '/api/v2/workos/login' },
    ]);
  });

  it('sends the browser to the provider with PKCE, state and nonce, bound by an httpOnly cookie', async () => {
    const res = await ts.api.get('/api/v2/workos/login');
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(sso.issuer);
    expect(url.searchParams.get('client_id')).toBe('cumulus-sso');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC}/auth/sso/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const line = [res.headers['set-cookie']].flat().find((l) => String(l).startsWith('cumulus_sign_in='));
    expect(String(line)).toMatch(/HttpOnly/);
    expect(String(line)).toMatch(/SameSite=Lax/);
  });
});

describe('SSO', () => {
  it('creates the user on the first sign-in, and signs the same user in after', async () => {
    const person = account();
    const first = await ssoSignIn(person);
    expect(first.res.status, first.res.text).toBe(200);
    expect(first.res.body.existing).toBe(false);
    const me = await ts.api.as(first.res.body.key).get('/api/v1/users/me/');
    expect(me.body.username).toBe(person.preferred_username);
    expect(me.body.email).toBe(person.email);
    expect(me.body.full_name).toBe('Ada Lovelace');
    expect(me.body.has_usable_password).toBe(false);

    const again = await ssoSignIn(person);
    expect(again.res.status).toBe(200);
    expect(again.res.body.existing).toBe(true);
    expect((await ts.api.as(again.res.body.key).get('/api/v1/users/me/')).body.id).toBe(me.body.id);
  });

  it('makes a taken username unique', async () => {
    const taken = await createUser(ts);
    const person = account({ preferred_username: taken.username });
    const { res } = await ssoSignIn(person);
    expect(res.status).toBe(200);
    const me = await ts.api.as(res.body.key).get('/api/v1/users/me/');
    expect(me.body.username).not.toBe(taken.username);
    expect(me.body.username.startsWith(`${taken.username}-`)).toBe(true);
  });

  it('refuses a replayed code', async () => {
    const person = account();
    const first = await ssoSignIn(person);
    expect(first.res.status).toBe(200);
    const replay = await ts.api.get('/api/v2/workos/success', {
      query: first.query,
      headers: { cookie: first.cookie },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.key).toBeUndefined();
    expect(replay.body.code).toBe('SIGN_IN_CODE_REFUSED');
    expect(replay.body.non_field_errors).toEqual([
      'Acme Okta refused the sign-in code: it was already used or has expired. Start again from the login page.',
    ]);
  });

  it('refuses a state this browser did not start, and a missing cookie', async () => {
    const person = account();
    sso.nextAccount = person;
    const mine = await begin('/api/v2/workos/login');
    const theirs = await begin('/api/v2/workos/login');
    const back = await followToCallback(theirs.authorize, `${PUBLIC}/auth/sso/callback`);
    const query = Object.fromEntries(back.searchParams);
    for (const cookie of [mine.cookie, '']) {
      const res = await ts.api.get('/api/v2/workos/success', { query, headers: cookie ? { cookie } : {} });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SIGN_IN_STATE_MISMATCH');
      expect(res.body.non_field_errors).toEqual([
        'This sign-in was not started in this browser, or it took longer than 10 minutes. Start again from the login page.',
      ]);
    }
    expect(await userByEmail(person.email)).toBeUndefined();
  });

  it.each([
    ['audience', (c: Record<string, unknown>) => ({ ...c, aud: 'someone-else' }), /aud/],
    ['issuer', (c: Record<string, unknown>) => ({ ...c, iss: 'https://evil.example' }), /iss/],
    ['nonce', (c: Record<string, unknown>) => ({ ...c, nonce: 'not-the-one' }), /nonce/],
    [
      'expiry',
      (c: Record<string, unknown>) => ({
        ...c,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 3600,
      }),
      /exp/,
    ],
  ])('refuses an ID token with a wrong %s', async (_what, tamper, reason) => {
    const person = account();
    sso.tamper = tamper;
    try {
      const { res } = await ssoSignIn(person);
      expect(res.status).toBe(400);
      expect(res.body.key).toBeUndefined();
      expect(res.body.code).toBe('SIGN_IN_TOKEN_INVALID');
      expect(res.body.non_field_errors[0]).toMatch(/^The answer from Acme Okta did not pass its checks \(/);
      expect(res.body.non_field_errors[0]).toMatch(reason);
    } finally {
      sso.tamper = null;
    }
    expect(await userByEmail(person.email)).toBeUndefined();
  });

  it('links an identity to an account with the same address only after its owner signs in to it', async () => {
    const owner = await createUser(ts);
    const person = account({ email: owner.email });
    const { res } = await ssoSignIn(person);
    expect(res.status).toBe(400);
    expect(res.body.non_field_errors).toEqual(['User is already registered with this e-mail address.']);
    expect(res.body.code).toBe('IDENTITY_LINK_REQUIRED');
    const link = cookieOf(res.headers['set-cookie'], 'cumulus_link');
    expect(link).toMatch(/^cumulus_link=.+/);
    // Nothing is linked yet: signing in again still asks for proof.
    expect((await ssoSignIn(person)).res.body.code).toBe('IDENTITY_LINK_REQUIRED');

    // Another user's password sign-in in this browser links nothing.
    const stranger = await createUser(ts);
    await ts.api.post(
      '/api/v1/auth/login/',
      { username: stranger.username, password: stranger.password },
      { headers: { cookie: link } },
    );
    expect((await ts.api.as(stranger.key).get('/api/v2/user/identities')).body).toEqual([]);

    // The owner proves the account with the password, in the browser that holds the waiting link.
    const login = await ts.api.post(
      '/api/v1/auth/login/',
      { username: owner.username, password: owner.password },
      { headers: { cookie: link } },
    );
    expect(login.status).toBe(200);
    const after = await ssoSignIn(person);
    expect(after.res.status).toBe(200);
    expect(after.res.body.existing).toBe(true);
    expect((await ts.api.as(after.res.body.key).get('/api/v1/users/me/')).body.username).toBe(owner.username);
  });

  it('links an identity by the single-use link mailed to the account, for an owner without a password', async () => {
    // An owner with no password cannot prove the account by signing in with one.
    const owner = await createUser(ts);
    await ts.server.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, owner.id));
    const person = account({ email: owner.email });
    const { res } = await ssoSignIn(person);
    expect(res.body.code).toBe('IDENTITY_LINK_REQUIRED');
    const link = cookieOf(res.headers['set-cookie'], 'cumulus_link');

    // Without the waiting sign-in in this browser nothing is mailed.
    const none = await ts.api.post('/api/v2/user/identities/link-email');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('IDENTITY_LINK_NOTHING_WAITING');

    const sent = await ts.api.post('/api/v2/user/identities/link-email', undefined, {
      headers: { cookie: link },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.detail).toBe(
      `We sent a link to ${owner.email}. Open it within 30 minutes to link this sign-in.`,
    );
    const mail = await ts.smtp.waitFor(owner.email, (m) => m.subject.includes('Link your Acme Okta sign-in'));
    const url = linkIn(mail, /http:\/\/cumulus\.test\/link-identity\/[0-9a-f]{48}/);
    expect(mail.text).toContain('valid for 30 minutes and can be used once');
    // Not linked before the link is opened.
    expect((await ssoSignIn(person)).res.body.code).toBe('IDENTITY_LINK_REQUIRED');

    const token = url.split('/').pop() as string;
    // The page shows what the link would link before its owner confirms; that uses nothing.
    const checked = await ts.api.post('/api/v2/user/identities/link-check', { token });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body).toEqual({
      provider: 'sso',
      name: 'Acme Okta',
      email: owner.email,
      username: owner.username,
    });
    const confirmed = await ts.api.post('/api/v2/user/identities/link-confirm', { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.detail).toBe('Linked. You can now sign in with Acme Okta.');
    // The link proved the account: it signs its owner in too.
    expect((await ts.api.as(confirmed.body.key).get('/api/v1/users/me/')).body.username).toBe(owner.username);
    const after = await ssoSignIn(person);
    expect(after.res.status).toBe(200);
    expect((await ts.api.as(after.res.body.key).get('/api/v1/users/me/')).body.username).toBe(owner.username);

    // Single use; and a made-up token links nothing.
    const again = await ts.api.post('/api/v2/user/identities/link-confirm', { token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('IDENTITY_LINK_INVALID');
    expect((await ts.api.post('/api/v2/user/identities/link-check', { token })).body.code).toBe(
      'IDENTITY_LINK_INVALID',
    );
    const forged = await ts.api.post('/api/v2/user/identities/link-confirm', { token: 'a'.repeat(48) });
    expect(forged.body.code).toBe('IDENTITY_LINK_INVALID');
  });

  it('a mailed link to an account whose address was never confirmed removes its password, sessions and tokens (pre-hijacking)', async () => {
    // An attacker registers the victim's address with a password of theirs and never confirms it;
    // a session and an API token stand for any credential they may hold.
    const victim = `${uniq('victim')}@corp.example`;
    const squatter = uniq('squatter');
    const signUp = await ts.api.post('/api/v1/registration/', {
      username: squatter,
      email: victim,
      password1: PASSWORD,
      password2: PASSWORD,
      full_name: 'Not The Victim',
    });
    expect(signUp.status, signUp.text).toBe(201);
    const confirmMail = await ts.smtp.waitFor(victim, (m) => m.text.includes('/verify-email-confirm/'));
    const confirmKey = linkIn(confirmMail, /verify-email-confirm\/[0-9a-f]+/)
      .split('/')
      .pop();
    const { db } = ts.server.deps;
    const held = (await userByEmail(victim))!;
    const session = await openSession(db, held);
    const { token } = await createToken(db, held, { label: 'kept' });
    expect((await ts.api.as(session).get('/api/v1/users/me/')).status).toBe(200);

    // The victim signs in with SSO, links by the mailed link, and is signed in.
    const person = account({ email: victim });
    const { res } = await ssoSignIn(person);
    expect(res.body.code).toBe('IDENTITY_LINK_REQUIRED');
    const waiting = cookieOf(res.headers['set-cookie'], 'cumulus_link');
    await ts.api.post('/api/v2/user/identities/link-email', undefined, { headers: { cookie: waiting } });
    const mail = await ts.smtp.waitFor(victim, (m) => m.text.includes('/link-identity/'));
    const linkToken = linkIn(mail, /[0-9a-f]{48}/);
    const confirmed = await ts.api.post('/api/v2/user/identities/link-confirm', { token: linkToken });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await ts.api.as(confirmed.body.key).get('/api/v1/users/me/')).body.email).toBe(victim);

    // The victim later clicks the "confirm your email" mail the attacker caused: the attacker's
    // password opens nothing, nor do their session and token.
    const clicked = await ts.api.post('/api/v1/registration/verify-email/', { key: confirmKey });
    const attacker = await ts.api.post('/api/v1/auth/login/', { username: squatter, password: PASSWORD });
    expect(attacker.status, attacker.text).toBe(400);
    expect(attacker.body.key).toBeUndefined();
    expect((await ts.api.as(session).get('/api/v1/users/me/')).status).toBe(401);
    expect((await ts.api.as(token).get('/api/v1/users/me/')).status).toBe(401);
    // The link had confirmed the address already and taken the password away.
    expect(clicked.body).toEqual({ detail: 'E-mail already verified.' });
    const after = (await userByEmail(victim))!;
    expect(after.emailVerifiedAt).not.toBeNull();
    expect(after.passwordHash).toBeNull();
    // The victim's own session, opened by the link, still works, and SSO signs them in.
    expect((await ts.api.as(confirmed.body.key).get('/api/v1/users/me/')).status).toBe(200);
    expect((await ssoSignIn(person)).res.status).toBe(200);
    // The page that confirmed the link says what became of the password.
    expect(confirmed.body.detail).toBe(
      'Linked. You can now sign in with Acme Okta. The password this account was registered with was removed, as its address had not been confirmed: to have one, use Forgot password on the login page.',
    );
  });

  it('refuses an expired mailed link', async () => {
    const owner = await createUser(ts);
    const { res } = await ssoSignIn(account({ email: owner.email }));
    const link = cookieOf(res.headers['set-cookie'], 'cumulus_link');
    await ts.api.post('/api/v2/user/identities/link-email', undefined, { headers: { cookie: link } });
    const mail = await ts.smtp.waitFor(owner.email, (m) => m.subject.startsWith('Link your'));
    const token = linkIn(mail, /[0-9a-f]{48}/);
    await ts.server.deps.db
      .update(identityLinkTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(identityLinkTokens.userId, owner.id));
    expect((await ts.api.post('/api/v2/user/identities/link-check', { token })).body.detail).toBe(
      'This link is not valid: it was already used, has expired, or was replaced. Start again from the login page.',
    );
    const late = await ts.api.post('/api/v2/user/identities/link-confirm', { token });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('IDENTITY_LINK_INVALID');
    expect((await ts.api.as(owner.key).get('/api/v2/user/identities')).body).toEqual([]);
  });

  it.each([
    ['two @', (name: string) => `${name}@evil.example@corp.example`],
    ['no name before the @', () => '@corp.example'],
    ['no domain after the @', (name: string) => `${name}@`],
  ])('refuses an address with %s from the provider', async (_what, address) => {
    const email = address(uniq());
    const { res } = await ssoSignIn(account({ email }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('SIGN_IN_EMAIL_INVALID');
    expect(res.body.key).toBeUndefined();
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses an address the provider says it did not verify', async () => {
    const person = account({ email_verified: false });
    const { res } = await ssoSignIn(person);
    expect(res.status).toBe(400);
    expect(res.body.non_field_errors).toEqual([
      'Your Acme Okta account has no verified email address, so it cannot be used to sign in.',
    ]);
    expect(await userByEmail(person.email)).toBeUndefined();
  });
});

describe('Google', () => {
  async function googleSignIn(person: TestAccount) {
    google.nextAccount = person;
    const flow = await begin('/api/v2/auth/google/login');
    expect(new URL(flow.authorize).origin).toBe(google.issuer);
    const back = await followToCallback(flow.authorize, `${PUBLIC}/auth/google/callback`);
    return ts.api.post('/users/google/get_token', Object.fromEntries(back.searchParams), {
      headers: { cookie: flow.cookie },
    });
  }

  it('signs a new user in through Google, and refuses an unverified address', async () => {
    const person = account({ email: `${uniq()}@gmail.example` });
    const res = await googleSignIn(person);
    expect(res.status, res.text).toBe(200);
    expect(res.body.existing).toBe(false);
    const identities = await ts.api.as(res.body.key).get('/api/v2/user/identities');
    expect(identities.body).toEqual([
      expect.objectContaining({ provider: 'google', name: 'Google', email: person.email }),
    ]);
    // Google must say it verified the address; saying nothing is not enough.
    const silent = await googleSignIn({ sub: `sub-${uniq()}`, email: `${uniq()}@gmail.example` });
    expect(silent.status).toBe(400);
    expect(silent.body.code).toBe('SIGN_IN_NO_VERIFIED_EMAIL');
  });

  it('does not take an SSO flow cookie for a Google code', async () => {
    const ssoFlow = await begin('/api/v2/workos/login');
    google.nextAccount = account();
    const flow = await begin('/api/v2/auth/google/login');
    const back = await followToCallback(flow.authorize, `${PUBLIC}/auth/google/callback`);
    const res = await ts.api.post('/users/google/get_token', Object.fromEntries(back.searchParams), {
      headers: { cookie: ssoFlow.cookie },
    });
    expect(res.body.code).toBe('SIGN_IN_STATE_MISMATCH');
  });
});

describe('GitHub', () => {
  async function githubSignIn(user: (typeof github)['nextUser']) {
    github.nextUser = user;
    const flow = await begin('/api/v2/auth/github/login');
    const authorize = new URL(flow.authorize);
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
    const back = await followToCallback(flow.authorize, `${PUBLIC}/auth/github/callback`);
    const body = Object.fromEntries(back.searchParams);
    const res = await ts.api.post('/users/github/get_token', body, { headers: { cookie: flow.cookie } });
    return { res, body, cookie: flow.cookie };
  }

  it('signs in with the primary verified address, and refuses a replayed code', async () => {
    const login = uniq();
    const primary = `${login}@users.example`;
    const { res, body, cookie } = await githubSignIn({
      id: Math.floor(Math.random() * 1e9),
      login,
      name: 'Grace Hopper',
      emails: [
        { email: `${login}@old.example`, primary: false, verified: false },
        { email: primary, primary: true, verified: true },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.existing).toBe(false);
    const me = await ts.api.as(res.body.key).get('/api/v1/users/me/');
    expect(me.body.username).toBe(login);
    expect(me.body.email).toBe(primary);

    const replay = await ts.api.post('/users/github/get_token', body, { headers: { cookie } });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('SIGN_IN_CODE_REFUSED');
  });

  it('refuses a verified address with two @', async () => {
    const login = uniq();
    const email = `${login}@evil.example@users.example`;
    const { res } = await githubSignIn({
      id: Math.floor(Math.random() * 1e9),
      login,
      name: null,
      emails: [{ email, primary: true, verified: true }],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('SIGN_IN_EMAIL_INVALID');
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses an account with no verified address', async () => {
    const login = uniq();
    const { res } = await githubSignIn({
      id: Math.floor(Math.random() * 1e9),
      login,
      name: null,
      emails: [{ email: `${login}@x.example`, primary: true, verified: false }],
    });
    expect(res.status).toBe(400);
    expect(res.body.non_field_errors).toEqual([
      'Your GitHub account has no verified email address, so it cannot be used to sign in.',
    ]);
  });
});

describe('linked identities on Profile', () => {
  it('lists them and unlinks one while another way to sign in remains', async () => {
    const person = account();
    const { res } = await ssoSignIn(person);
    const api = ts.api.as(res.body.key);
    const [only] = (await api.get('/api/v2/user/identities')).body;
    expect(only).toMatchObject({ provider: 'sso', name: 'Acme Okta', email: person.email });

    // The only way this user signs in: unlinking it is refused.
    const refused = await api.delete(`/api/v2/user/identities/${only.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('LAST_SIGN_IN_METHOD');

    // Google with the same address links after the user proves the account through SSO.
    google.nextAccount = { ...account(), email: person.email };
    const flow = await begin('/api/v2/auth/google/login');
    const back = await followToCallback(flow.authorize, `${PUBLIC}/auth/google/callback`);
    const waiting = await ts.api.post('/users/google/get_token', Object.fromEntries(back.searchParams), {
      headers: { cookie: flow.cookie },
    });
    expect(waiting.body.code).toBe('IDENTITY_LINK_REQUIRED');
    const proof = await ssoSignIn(person, cookieOf(waiting.headers['set-cookie'], 'cumulus_link'));
    expect(proof.res.status).toBe(200);
    const both = (await api.get('/api/v2/user/identities')).body;
    expect(both.map((i: { provider: string }) => i.provider)).toEqual(['sso', 'google']);

    const unlinked = await api.delete(`/api/v2/user/identities/${only.id}`);
    expect(unlinked.status).toBe(204);
    expect(
      (await api.get('/api/v2/user/identities')).body.map((i: { provider: string }) => i.provider),
    ).toEqual(['google']);
    // Someone else's identity is not found.
    const other = await createUser(ts);
    expect((await ts.api.as(other.key).delete(`/api/v2/user/identities/${both[1].id}`)).status).toBe(404);
  });
});

it('a provider user stays signed out once deactivated', async () => {
  const person = account();
  const { res } = await ssoSignIn(person);
  const user = await userByEmail(person.email);
  await ts.server.deps.db.update(users).set({ isActive: false }).where(eq(users.id, user!.id));
  const again = await ssoSignIn(person);
  expect(res.status).toBe(200);
  expect(again.res.status).toBe(400);
  expect(again.res.body.key).toBeUndefined();
});

describe('terminal sign-in', () => {
  it('`cumulus login` is approved by a user who signed in through SSO and has no password', async () => {
    const person = account();
    const { res } = await ssoSignIn(person);
    expect(res.status).toBe(200);
    const user = await userByEmail(person.email);
    expect(user?.passwordHash).toBeNull();

    await ts.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ts.app.server.address() as AddressInfo;
    const home = mkdtempSync(path.join(tmpdir(), 'cumulus-home-'));
    const cli = spawn('/usr/bin/python3', ['-m', 'cumulus', 'login'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        PYTHONPATH: PYTHON_DIR,
        // The server shares two cores with other test files: an answer may take longer than 6 s.
        CUMULUS_REQUEST_TIMEOUT: '30',
        PYTHONUNBUFFERED: '1',
        CUMULUS_SERVER: `http://127.0.0.1:${port}`,
      },
    });
    let printed = '';
    const exited = new Promise<number | null>((resolve) => cli.on('close', resolve));
    cli.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
    });
    cli.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
    });
    try {
      const asked = await waitFor(
        'the terminal to print its link and code',
        async () => {
          const link = /\/activate-token\?id=([0-9a-f]+)/.exec(printed);
          const code = /type this code: ([A-Z]{4}-[A-Z]{4})/.exec(printed);
          return link && code ? { id: link[1], code: code[1] } : undefined;
        },
        30_000,
      );
      // The browser the person signed in with through SSO approves it, with the terminal's code.
      const approved = await ts.api
        .as(res.body.key)
        .patch(`/api/v1/api-tokens/${asked.id}/activate/`, { user_code: asked.code });
      expect(approved.status, approved.text).toBe(200);
      expect(await exited, printed).toBe(0);
      expect(printed).toContain(`as ${user!.username}`);
      const saved = readFileSync(path.join(home, '.config', 'dask', 'cumulus.yaml'), 'utf8');
      expect(saved).toContain(user!.username);
    } finally {
      cli.kill();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
