import { lookup } from 'node:dns/promises';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { organizationSsoConnections, users, workspaceMemberships } from '../src/db/schema/index.js';
import { TxtDnsServer } from './helpers/dns-server.js';
import {
  addMember,
  createOrganization,
  createUser,
  createWorkspace,
  PASSWORD,
  uniq,
} from './helpers/factories.js';
import { followToCallback, type TestAccount, TestOidcProvider } from './helpers/oidc-provider.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { linkIn } from './helpers/smtp.js';

// An organization's own OpenID connection (a real `oidc-provider` on a local port), its email
// domains proven by a TXT record at a real local DNS server, and Require SSO for its members.
const PUBLIC = 'http://cumulus.test';
// The provider is on this machine, named by `localhost`: the operator allows its issuer, as an
// organization's connection may use no other private address.
const idp = new TestOidcProvider(
  {
    clientId: 'acme-cumulus',
    clientSecret: 'acme-secret-0123456789',
    redirectUris: [`${PUBLIC}/auth/sso/callback`],
  },
  { hostname: 'localhost' },
);
const dns = new TxtDnsServer();
let ts: TestServer;

beforeAll(async () => {
  await idp.start();
  const dnsServer = await dns.start();
  // No server-wide SSO: only organizations' connections.
  ts = await startTestServer({ CUMULUS_DNS_SERVERS: dnsServer, CUMULUS_SSO_ALLOWED_ISSUERS: idp.issuer });
});
afterAll(async () => {
  await ts?.close();
  await Promise.all([idp.stop(), dns.stop()]);
});

const cookieOf = (setCookie: unknown, name: string): string => {
  const lines = Array.isArray(setCookie) ? setCookie : [String(setCookie ?? '')];
  const line = lines.find((l: string) => l.startsWith(`${name}=`));
  return line ? (line.split(';')[0] as string) : '';
};

/** The whole round trip from the login page's SSO path with a work email. */
async function ssoSignIn(email: string, person: TestAccount) {
  idp.nextAccount = person;
  const start = await ts.api.get('/api/v2/workos/login', { query: { email } });
  expect(start.status).toBe(302);
  const authorize = String(start.headers.location);
  const cookie = cookieOf(start.headers['set-cookie'], 'cumulus_sign_in');
  const back = await followToCallback(authorize, `${PUBLIC}/auth/sso/callback`);
  const res = await ts.api.get('/api/v2/workos/success', {
    query: Object.fromEntries(back.searchParams),
    headers: { cookie },
  });
  return { res, authorize };
}

/** An organization whose admin set the connection and proved `domain` by DNS. */
async function connectedOrganization(options: { joinWorkspace?: boolean } = {}) {
  const admin = await createUser(ts);
  const org = await createOrganization(ts, admin);
  const workspace = await createWorkspace(ts, org);
  const domain = `${uniq('d')}.example.org`;
  const as = ts.api.as(admin.key);
  const base = `/api/v2/users/organizations/sso/${org.id}`;
  const set = await as.put(`${base}/connection`, {
    issuer: idp.issuer,
    client_id: idp.client.clientId,
    client_secret: idp.client.clientSecret,
    join_workspace_ids: options.joinWorkspace === false ? [] : [workspace.id],
  });
  expect(set.status, set.text).toBe(200);
  const added = await as.post(`${base}/domains`, { domain });
  expect(added.status, added.text).toBe(201);
  dns.records.set(domain, ['v=spf1 -all', added.body.txt_value]);
  const verified = await as.post(`${base}/domains/${added.body.id}/verify`);
  expect(verified.status, verified.text).toBe(200);
  return { admin, org, workspace, domain, as, base, domainId: added.body.id as number };
}

describe('an organization admin sets a connection', () => {
  it('keeps the client secret sealed and never returns it', async () => {
    const { org, as, base } = await connectedOrganization();
    const view = await as.get(base);
    expect(view.status).toBe(200);
    expect(view.body.connection).toEqual({
      issuer: idp.issuer,
      client_id: 'acme-cumulus',
      client_secret_set: true,
      join_workspace_ids: expect.any(Array),
    });
    expect(view.text).not.toContain(idp.client.clientSecret);
    expect(view.body.redirect_uri).toBe(`${PUBLIC}/auth/sso/callback`);
    const [row] = await ts.server.deps.db
      .select()
      .from(organizationSsoConnections)
      .where(eq(organizationSsoConnections.organizationId, org.id));
    expect(row!.clientSecretSealed).not.toContain(idp.client.clientSecret);
    expect(row!.clientSecretSealed.startsWith('v1.')).toBe(true);
  });

  it('is refused to members who are not organization admins, and to other people', async () => {
    const { org, base } = await connectedOrganization();
    const member = await createUser(ts);
    await addMember(ts, member, org);
    const stranger = await createUser(ts);
    expect((await ts.api.as(member.key).get(base)).status).toBe(403);
    expect((await ts.api.as(stranger.key).get(base)).status).toBe(404);
    const put = await ts.api.as(member.key).put(`${base}/connection`, {
      issuer: 'https://evil.example',
      client_id: 'x',
      client_secret: 'y',
    });
    expect(put.status).toBe(403);
  });

  it('refuses workspaces of another organization, and a first connection without a secret', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const other = await createWorkspace(ts, await createOrganization(ts, await createUser(ts)));
    const base = `/api/v2/users/organizations/sso/${org.id}`;
    const foreign = await ts.api.as(admin.key).put(`${base}/connection`, {
      issuer: idp.issuer,
      client_id: 'c',
      client_secret: 's',
      join_workspace_ids: [other.id],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.detail).toBe('New members can only join workspaces of this organization.');
    const secretless = await ts.api
      .as(admin.key)
      .put(`${base}/connection`, { issuer: idp.issuer, client_id: 'c' });
    expect(secretless.status).toBe(400);
    expect(secretless.body.detail).toBe('Enter the client secret your identity provider gave you.');
  });
});

describe('the issuer of a connection', () => {
  const RULE =
    "An organization's identity provider must be at an https:// address on the public internet, not a private, loopback or link-local one:";
  const HINT =
    'To use a provider on your own network, ask the operator of this Cumulus server to list its issuer in CUMULUS_SSO_ALLOWED_ISSUERS.';
  /** This machine's own name, which resolves to one of its own addresses. */
  const machine = hostname().toLowerCase();
  const kindOf = (address: string) =>
    /^(127\.|::1$)/.test(address)
      ? 'a loopback address'
      : /^fe[89ab]/.test(address)
        ? 'a link-local address'
        : /^f[cd]/.test(address)
          ? 'a unique local address'
          : 'a private address';

  it('must be https and not on a private, loopback or link-local address, unless the operator allowed it', async () => {
    const { address: own } = (await lookup(machine, { all: true }))[0]!;
    // What the name case stands on: this machine's name resolves to an address of its own.
    expect(own).toMatch(/^(127\.|10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|::1$|f[cde])/);
    const { as, base } = await connectedOrganization();
    const refused: Array<[string, string]> = [
      ['http://127.0.0.1:9', 'http://127.0.0.1:9 is not https.'],
      ['http://idp.example.com', 'http://idp.example.com is not https.'],
      ['https://127.0.0.1:8443', '127.0.0.1 is a loopback address.'],
      ['https://127.1', '127.0.0.1 is a loopback address.'],
      ['https://10.1.2.3/realms/acme', '10.1.2.3 is a private address.'],
      ['https://172.20.0.5', '172.20.0.5 is a private address.'],
      ['https://192.168.0.10', '192.168.0.10 is a private address.'],
      ['https://100.64.0.1', '100.64.0.1 is a private address.'],
      ['https://169.254.169.254', '169.254.169.254 is a link-local address.'],
      ['https://0.0.0.0', '0.0.0.0 is an unspecified address, which reaches this machine.'],
      ['https://[::1]:8443', '::1 is a loopback address.'],
      ['https://[::ffff:127.0.0.1]', '::ffff:7f00:1 is a loopback address.'],
      ['https://[::ffff:10.0.0.1]', '::ffff:a00:1 is a private address.'],
      ['https://[fd12:3456::1]', 'fd12:3456::1 is a unique local address.'],
      ['https://[fe80::1]', 'fe80::1 is a link-local address.'],
      ['https://[ff02::1]', 'ff02::1 is a reserved address.'],
      ['https://localhost:8443', 'localhost is a name of this machine.'],
      ['https://idp.localhost', 'idp.localhost is a name of this machine.'],
      [`https://${machine}:8443`, `${machine} resolves to ${own}, ${kindOf(own)}.`],
    ];
    for (const [issuer, reason] of refused) {
      const res = await as.put(`${base}/connection`, { issuer, client_id: 'c', client_secret: 's' });
      expect(res.status, issuer).toBe(400);
      expect(res.body, issuer).toEqual({ issuer: [`${RULE} ${reason} ${HINT}`] });
    }
    // The connection kept is still the one set before.
    expect((await as.get(base)).body.connection.issuer).toBe(idp.issuer);

    // The operator allowed the provider's issuer: what is below it, not another port of its host.
    const below = await as.put(`${base}/connection`, { issuer: `${idp.issuer}/realms/acme`, client_id: 'c' });
    expect(below.status, below.text).toBe(200);
    const neighbour = `http://localhost:${Number(new URL(idp.issuer).port) + 1}`;
    const beside = await as.put(`${base}/connection`, { issuer: neighbour, client_id: 'c' });
    expect(beside.body).toEqual({ issuer: [`${RULE} ${neighbour} is not https. ${HINT}`] });

    // A public address is accepted; so is a name that does not resolve now (it is checked at each sign-in).
    for (const issuer of ['https://93.184.215.14/oidc', `https://${uniq('idp')}.invalid`]) {
      const res = await as.put(`${base}/connection`, { issuer, client_id: 'c' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.connection.issuer).toBe(issuer);
    }
  });

  it('is allowed by the operator in CUMULUS_SSO_ALLOWED_ISSUERS, a list of http(s) URLs checked at start', () => {
    const base = { CUMULUS_SECRET: 'x'.repeat(40), CUMULUS_DATA_DIR: '/tmp/cumulus-config-test' };
    const allowed = ' https://idp.internal/realms/acme/ , http://127.0.0.1:8080';
    expect(loadConfig({ ...base, CUMULUS_SSO_ALLOWED_ISSUERS: allowed }).signIn.allowedIssuers).toEqual([
      'https://idp.internal/realms/acme',
      'http://127.0.0.1:8080',
    ]);
    expect(loadConfig(base).signIn.allowedIssuers).toEqual([]);
    for (const wrong of ['127.0.0.1:8080', 'ftp://idp.internal', 'https://idp.internal?x=1']) {
      expect(() => loadConfig({ ...base, CUMULUS_SSO_ALLOWED_ISSUERS: wrong }), wrong).toThrow(
        /CUMULUS_SSO_ALLOWED_ISSUERS must be http\(s\) URLs separated by commas/,
      );
    }
  });

  it('is checked again at sign-in: a stored issuer on a private address is never connected to', async () => {
    const { org, domain } = await connectedOrganization();
    let connections = 0;
    const listener = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const setIssuer = (issuer: string) =>
      ts.server.deps.db
        .update(organizationSsoConnections)
        .set({ issuer })
        .where(eq(organizationSsoConnections.organizationId, org.id));
    try {
      // A sign-in started while the issuer was the provider's finishes after it changed.
      idp.nextAccount = { sub: uniq('sub'), email: `ada@${domain}`, email_verified: true };
      const start = await ts.api.get('/api/v2/workos/login', { query: { email: `ada@${domain}` } });
      const cookie = cookieOf(start.headers['set-cookie'], 'cumulus_sign_in');
      const back = await followToCallback(String(start.headers.location), `${PUBLIC}/auth/sso/callback`);
      // As if saved before the rule, or as if its name resolved elsewhere when it was saved.
      for (const issuer of [`http://127.0.0.1:${port}`, `https://${machine}:${port}`]) {
        await setIssuer(issuer);
        const begin = await ts.api.get('/api/v2/workos/login', { query: { email: `ada@${domain}` } });
        expect(begin.status).toBe(302);
        expect(begin.headers.location).toBe('/login?open=true&sso=unreachable&provider=sso');
      }
      const finish = await ts.api.get('/api/v2/workos/success', {
        query: Object.fromEntries(back.searchParams),
        headers: { cookie },
      });
      expect(connections).toBe(0);
      expect(finish.status).toBe(502);
      expect(finish.body.key).toBeUndefined();
      expect(finish.body.code).toBe('SIGN_IN_ISSUER_REFUSED');
      const { address: own } = (await lookup(machine, { all: true }))[0]!;
      expect(finish.body.detail).toBe(
        `${org.name}'s identity provider is at an address Cumulus does not connect to: ${machine} resolves to ${own}, ${kindOf(own)}. An admin of ${org.name} can correct its issuer on the Team page's Single sign-on tab.`,
      );
    } finally {
      listener.close();
    }
  });
});

describe('domain proof', () => {
  it('asks the DNS for the TXT record and says what is missing until it is there', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const domain = `${uniq('p')}.example.net`;
    const as = ts.api.as(admin.key);
    const base = `/api/v2/users/organizations/sso/${org.id}`;
    const added = await as.post(`${base}/domains`, { domain: domain.toUpperCase() });
    expect(added.body).toMatchObject({ domain, txt_name: domain, verified: false });
    expect(added.body.txt_value).toMatch(/^cumulus-domain-verification=[0-9a-f]{32}$/);

    const missing = await as.post(`${base}/domains/${added.body.id}/verify`);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe(
      `No TXT record "${added.body.txt_value}" was found at ${domain}. DNS changes can take a while to appear; try again later.`,
    );
    expect(dns.questions).toContain(domain);

    // A record with another token proves nothing.
    dns.records.set(domain, ['cumulus-domain-verification=0000']);
    expect((await as.post(`${base}/domains/${added.body.id}/verify`)).status).toBe(400);

    dns.records.set(domain, [added.body.txt_value]);
    const ok = await as.post(`${base}/domains/${added.body.id}/verify`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ verified: true, verified_by: 'dns' });

    // Another organization cannot claim it now.
    const rival = await createUser(ts);
    const rivalOrg = await createOrganization(ts, rival);
    const claim = await ts.api
      .as(rival.key)
      .post(`/api/v2/users/organizations/sso/${rivalOrg.id}/domains`, { domain });
    expect(claim.status).toBe(409);
    expect(claim.body.detail).toBe(`${domain} is already proven by another organization.`);
  });

  it('can be decided by staff, and only by staff', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const domain = `${uniq('s')}.example.net`;
    const added = await ts.api
      .as(admin.key)
      .post(`/api/v2/users/organizations/sso/${org.id}/domains`, { domain });
    expect(
      (await ts.api.as(admin.key).post(`/api/v2/staff/sso-domains/${added.body.id}/verify`)).status,
    ).toBe(403);
    const staff = await createUser(ts, { staff: true });
    const pending = await ts.api.as(staff.key).get('/api/v2/staff/sso-domains');
    expect(pending.body.map((d: { domain: string }) => d.domain)).toContain(domain);
    const decided = await ts.api.as(staff.key).post(`/api/v2/staff/sso-domains/${added.body.id}/verify`);
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ verified: true, verified_by: 'staff' });
  });
});

describe('signing in by email domain', () => {
  it("sends a work email to its organization's provider; a first sign-in joins the mapped workspace", async () => {
    const { org, workspace, domain } = await connectedOrganization();
    const person: TestAccount = {
      sub: uniq('sub'),
      email: `ada@${domain}`,
      email_verified: true,
      name: 'Ada L',
    };
    const { res, authorize } = await ssoSignIn(`Ada@${domain}`, person);
    expect(new URL(authorize).origin).toBe(idp.issuer);
    expect(new URL(authorize).searchParams.get('client_id')).toBe('acme-cumulus');
    expect(res.status, res.text).toBe(200);
    expect(res.body.existing).toBe(false);
    const me = await ts.api.as(res.body.key).get('/api/v1/users/me/');
    expect(me.body.email).toBe(person.email);
    const joined = await ts.server.deps.db
      .select()
      .from(workspaceMemberships)
      .where(eq(workspaceMemberships.userId, me.body.id));
    expect(joined.find((m) => m.workspaceId === workspace.id)).toMatchObject({ isAdmin: false });
    const orgs = await ts.api.as(res.body.key).get('/api/v2/users/organizations/', { query: {} });
    expect(JSON.stringify(orgs.body)).toContain(org.name);

    const again = await ssoSignIn(person.email, person);
    expect(again.res.body.existing).toBe(true);
  });

  it("refuses an address outside the organization's proven domains", async () => {
    const { domain } = await connectedOrganization();
    const person: TestAccount = { sub: uniq('sub'), email: `${uniq()}@gmail.example`, email_verified: true };
    const { res } = await ssoSignIn(`someone@${domain}`, person);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('SIGN_IN_DOMAIN_NOT_OWNED');
    expect(res.body.key).toBeUndefined();
  });

  it("refuses an address with two @ from the organization's provider, though it ends in a proven domain", async () => {
    const { org, domain } = await connectedOrganization();
    const email = `victim@gmail.example@${domain}`;
    const { res } = await ssoSignIn(`someone@${domain}`, { sub: uniq('sub'), email, email_verified: true });
    expect(res.status, res.text).toBe(400);
    expect(res.body.key).toBeUndefined();
    expect(res.body.code).toBe('SIGN_IN_EMAIL_INVALID');
    expect(res.body.non_field_errors).toEqual([
      `${org.name} gave the address "${email}", which is not one valid email address (one @, a name before it and a domain after it), so no one was signed in.`,
    ]);
    const made = await ts.server.deps.db.select().from(users).where(eq(users.email, email));
    expect(made).toEqual([]);
  });

  it('does not use a connection whose domain is not proven, and says no connection was found', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const domain = `${uniq('u')}.example.net`;
    const as = ts.api.as(admin.key);
    await as.put(`/api/v2/users/organizations/sso/${org.id}/connection`, {
      issuer: idp.issuer,
      client_id: idp.client.clientId,
      client_secret: idp.client.clientSecret,
    });
    await as.post(`/api/v2/users/organizations/sso/${org.id}/domains`, { domain });
    const res = await ts.api.get('/api/v2/workos/login', { query: { email: `x@${domain}` } });
    expect(res.status).toBe(302);
    expect(String(res.headers.location)).toBe(
      `/login?open=true&sso=no-connection&email=${encodeURIComponent(`x@${domain}`)}`,
    );
  });
});

describe('Require SSO', () => {
  it('needs a proven domain first', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const res = await ts.api.as(admin.key).put(`/api/v2/users/organizations/sso/${org.id}/require`, {
      require_sso: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(
      'Require SSO needs a connection and at least one verified domain, so members can still sign in.',
    );
  });

  it('signs a member of an organization requiring SSO in by the mailed link that links its connection', async () => {
    const { org, as, base, domain } = await connectedOrganization();
    const member = await createUser(ts);
    const email = `${member.username}@${domain}`;
    await ts.server.deps.db.update(users).set({ email }).where(eq(users.id, member.id));
    await addMember(ts, member, org);
    expect((await as.put(`${base}/require`, { require_sso: true })).status).toBe(200);

    // Their first sign-in through the connection finds the account: it waits to be linked.
    const person: TestAccount = { sub: uniq('sub'), email, email_verified: true };
    const first = await ssoSignIn(email, person);
    expect(first.res.body.code).toBe('IDENTITY_LINK_REQUIRED');
    const waiting = cookieOf(first.res.headers['set-cookie'], 'cumulus_link');
    await ts.api.post('/api/v2/user/identities/link-email', undefined, { headers: { cookie: waiting } });
    const mail = await ts.smtp.waitFor(email, (m) => m.text.includes('/link-identity/'));
    const token = linkIn(mail, /[0-9a-f]{48}/);

    // The identity is the organization's own connection: Require SSO lets the link sign them in.
    const confirmed = await ts.api.post('/api/v2/user/identities/link-confirm', { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await ts.api.as(confirmed.body.key).get('/api/v1/users/me/')).body.username).toBe(
      member.username,
    );
    expect((await ssoSignIn(email, person)).res.status).toBe(200);
  });

  it("refuses members' passwords with 'SSO required', and lets them in through the connection", async () => {
    const { org, as, base, domain } = await connectedOrganization();
    const member = await createUser(ts);
    await addMember(ts, member, org);
    const on = await as.put(`${base}/require`, { require_sso: true });
    expect(on.status).toBe(200);
    expect(on.body.require_sso).toBe(true);

    const password = await ts.api.post('/api/v1/auth/login/', {
      username: member.username,
      password: PASSWORD,
    });
    expect(password.status).toBe(401);
    expect(password.body.detail).toBe('SSO required');
    expect(password.body.non_field_errors[0]).toBe(
      `${org.name} requires single sign-on: use Continue with SSO on the login page and enter your work email.`,
    );
    expect(password.body.key).toBeUndefined();

    // Someone outside the organization is not affected.
    const outsider = await createUser(ts);
    const theirs = await ts.api.post('/api/v1/auth/login/', {
      username: outsider.username,
      password: PASSWORD,
    });
    expect(theirs.status).toBe(200);

    // A member who signs in through the connection gets in.
    const person: TestAccount = { sub: uniq('sub'), email: `grace@${domain}`, email_verified: true };
    const first = await ssoSignIn(person.email, person);
    expect(first.res.status, first.res.text).toBe(200);
    expect(
      (await ts.api.post('/api/v1/auth/login/', { username: member.username, password: PASSWORD })).status,
    ).toBe(401);

    // Turning it off lets the password in again.
    await as.put(`${base}/require`, { require_sso: false });
    expect(
      (await ts.api.post('/api/v1/auth/login/', { username: member.username, password: PASSWORD })).status,
    ).toBe(200);
  });
});
