import { availableParallelism, totalmem } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceMemberships, workspaces } from '../src/db/schema/index.js';
import {
  addMember,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
  uniq,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The user/account/{ws} calls and the user's standing, as a self-hosted server answers them. */
let ts: TestServer;
let admin: TestUser;
let member: TestUser;
let outsider: TestUser;
let slug: string;
let workspaceId: number;
const base = () => `/api/v2/user/account/${slug}`;

beforeAll(async () => {
  ts = await startTestServer();
  [admin, member, outsider] = await Promise.all([createUser(ts), createUser(ts), createUser(ts)]);
  const organization = await createOrganization(ts, admin, { name: uniq('Org') });
  const workspace = await createWorkspace(ts, organization);
  slug = workspace.slug;
  workspaceId = workspace.id;
  await addMember(ts, admin, organization, { role: 'admin', workspaces: [{ workspace, isAdmin: true }] });
  await addMember(ts, member, organization, { workspaces: [{ workspace, coreLimit: 8, creditLimit: 500 }] });
}, 120_000);
afterAll(() => ts?.close());

describe('user/account/{ws}/options', () => {
  it('answers the backend, what it can do, and the caller’s own limits there', async () => {
    const res = await ts.api.as(member.key).get(`${base()}/options`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account: slug,
      backend_type: 'in_process',
      provider_name: 'local',
      can_use_cumulus_hosted: true,
      capabilities: expect.objectContaining({ ssh: false, builds: expect.arrayContaining(['pip']) }),
      core_limit: 8,
      credit_limit: 500,
      workspace_credit_limit: null,
      // The test server runs clusters on the interpreter (CUMULUS_DEFAULT_ENVIRONMENT=off).
      default_software_environment: null,
      default_idle_timeout: '20 minutes',
      // Local workers run on this machine: the console offers sizes up to it.
      worker_machine: { cores: availableParallelism(), memory_mib: Math.floor(totalmem() / 2 ** 20) },
    });
    expect((await ts.api.as(outsider.key).get(`${base()}/options`)).status).toBe(404);
  });
});

describe('user/account/{ws}/registry', () => {
  it('says environments are kept by this server, and where its package index is', async () => {
    const res = await ts.api.as(member.key).get(`${base()}/registry`);
    expect(res.body).toEqual({
      type: 'local',
      uri: null,
      package_index_url: `http://cumulus.test/api/v2/packages/index/${slug}/simple/`,
      detail: expect.stringMatching(/kept by this Cumulus server.*no container registry/),
    });
  });

  it('takes `local` from an admin, refuses a container registry by name, and members may not set it', async () => {
    const local = await ts.api.as(admin.key).post(`${base()}/registry`, { type: 'local' });
    expect(local.status).toBe(200);
    expect(local.body.type).toBe('local');
    const ecr = await ts.api.as(admin.key).post(`${base()}/registry`, {
      type: 'ecr',
      uri: '123.dkr.ecr.us-east-1.amazonaws.com',
      access_token: 'x',
    });
    expect(ecr.status).toBe(400);
    expect(ecr.body.type[0]).toMatch(/cannot use a ecr registry/);
    const bad = await ts.api.as(admin.key).post(`${base()}/registry`, { type: 'quay' });
    expect(bad.status).toBe(400);
    expect(bad.body.type).toBeDefined();
    expect((await ts.api.as(member.key).post(`${base()}/registry`, { type: 'local' })).status).toBe(403);
  });
});

describe('user/account/{ws}/public and prometheus-read-credentials', () => {
  it('answers the workspace’s names and avatar to its readers only', async () => {
    const res = await ts.api.as(member.key).get(`${base()}/public`);
    expect(res.body).toEqual({
      id: workspaceId,
      slug,
      name: expect.any(String),
      avatar_url: null,
      organization_name: expect.stringMatching(/^Org/),
      is_personal: false,
    });
    expect((await ts.api.as(outsider.key).get(`${base()}/public`)).status).toBe(404);
  });

  it('says there is no Prometheus and where the metrics are instead', async () => {
    const res = await ts.api.as(member.key).get(`${base()}/prometheus-read-credentials`);
    expect(res.body).toEqual({
      available: false,
      url: null,
      username: null,
      password: null,
      detail: expect.stringMatching(/runs no Prometheus/),
      metrics_url: `http://cumulus.test/api/v2/metrics/account/${slug}/cluster/`,
    });
  });
});

describe('PATCH user/account/{ws}', () => {
  it('lets an admin rename the workspace (the slug stays) and set its avatar and credit limit', async () => {
    const name = uniq('Renamed').slice(0, 30);
    const res = await ts.api.as(admin.key).patch(base(), {
      name,
      avatar_url: 'https://example.org/a.png',
      credit_limit: 250,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      slug,
      name,
      avatar_url: 'https://example.org/a.png',
      credit_limit: 250,
    });
    const [row] = await ts.server.deps.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    expect(row).toMatchObject({ slug, name, avatarUrl: 'https://example.org/a.png', creditLimit: 250 });
    // A change of case only is the same name.
    expect((await ts.api.as(admin.key).patch(base(), { name: name.toUpperCase() })).status).toBe(200);
    expect((await ts.api.as(admin.key).patch(base(), {})).status).toBe(200);
  });

  it('refuses a taken name, bad input (writing nothing) and callers who are not admins', async () => {
    const [before] = await ts.server.deps.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    const other = await ts.api.as(outsider.key).get('/api/v2/user/me');
    const taken = await ts.api.as(admin.key).patch(base(), { name: other.body.default_account.name });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe('REQUIRE_UNIQUE_ACCOUNT_NAMES');
    const short = await ts.api.as(admin.key).patch(base(), { name: 'ab', credit_limit: 1 });
    expect(short.status).toBe(400);
    expect(short.body.name).toEqual(['Must be at least 4 characters']);
    const script = await ts.api.as(admin.key).patch(base(), { avatar_url: 'javascript:alert(1)' });
    expect(script.body.avatar_url).toEqual(['Enter an http(s) URL.']);
    const unknown = await ts.api.as(admin.key).patch(base(), { slug: 'new-slug' });
    expect(unknown.status).toBe(400);
    const [after] = await ts.server.deps.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    expect(after).toEqual(before);
    expect((await ts.api.as(member.key).patch(base(), { credit_limit: 1 })).status).toBe(403);
    expect((await ts.api.as(outsider.key).patch(base(), { credit_limit: 1 })).status).toBe(404);
  });
});

describe('the user’s standing', () => {
  it('source-ip answers the address the request came from', async () => {
    const res = await ts.api.as(member.key).get('/api/v2/user/source-ip', { remoteAddress: '203.0.113.7' });
    expect(res.body).toEqual({ ip: '203.0.113.7' });
  });

  it('hosted-activate and the approval dry run say where clusters run, or that the user holds no cores', async () => {
    const active = await ts.api.as(member.key).get('/api/v2/user/hosted-activate');
    expect(active.body).toEqual({
      activated: true,
      account: expect.any(String),
      detail: expect.stringMatching(/nothing to activate/),
    });
    expect((await ts.api.as(member.key).get('/api/v2/user/hosted-approval-dry-run')).body.approved).toBe(
      true,
    );

    const idle = await createUser(ts);
    await ts.server.deps.db
      .update(workspaceMemberships)
      .set({ coreLimit: 0 })
      .where(eq(workspaceMemberships.userId, idle.id));
    expect((await ts.api.as(idle.key).get('/api/v2/user/hosted-activate')).body).toEqual({
      activated: false,
      account: null,
      detail: expect.stringMatching(/no cores/),
    });
    const dry = await ts.api.as(idle.key).get('/api/v2/user/hosted-approval-dry-run');
    expect(dry.body).toEqual({ approved: false, reason: expect.stringMatching(/no cores/) });
  });
});
