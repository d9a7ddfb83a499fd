import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, workspaceMemberships } from '../src/db/schema/index.js';
import { addMember, createOrganization, createUser, createWorkspace, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

const WS = '/api/v2/users/workspaces';
const shortName = () => `W ${uniq('').slice(0, 24)}`;

describe('creating a workspace', () => {
  it('checks the name with the spec messages', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const cases: Array<[unknown, string]> = [
      [undefined, 'Workspace name is required'],
      ['', 'Workspace name is required'],
      ['ab ', 'Must be at least 4 characters'],
      ['w'.repeat(35), 'Must be less than 34 characters'],
    ];
    for (const [name, message] of cases) {
      const res = await ts.api.as(admin.key).post(`${WS}/`, { name, organization_id: org.id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ name: [message] });
    }
    const symbols = await ts.api.as(admin.key).post(`${WS}/`, { name: '!!!!', organization_id: org.id });
    expect(symbols.body).toEqual({ name: ['Use at least one letter or number.'] });
  });

  it('makes the creating organization admin its admin, with a slug from the name', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const name = shortName();
    const res = await ts.api.as(admin.key).post(`${WS}/`, { name, organization_id: org.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      slug: name.toLowerCase().replace(' ', '-'),
      credit_limit: null,
      active: true,
      organization: { id: org.id, name: org.name, is_personal: false },
      membership_set: [{ user: { id: admin.id }, is_admin: true, core_limit: 1000, credit_limit: 100000 }],
    });
    const mine = await ts.api.as(admin.key).get('/api/v2/user/me/memberships');
    expect(mine.body.map((m: { account: { name: string } }) => m.account.name)).toContain(name);
  });

  it('keeps names globally unique, whatever the case, and apart from usernames', async () => {
    const [admin, other] = [await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const otherOrg = await createOrganization(ts, other);
    const name = shortName();
    expect((await ts.api.as(admin.key).post(`${WS}/`, { name, organization_id: org.id })).status).toBe(201);
    for (const taken of [name, name.toUpperCase(), name.replace(' ', '-'), other.username]) {
      const res = await ts.api.as(other.key).post(`${WS}/`, { name: taken, organization_id: otherOrg.id });
      expect(res.status, taken).toBe(400);
      expect(res.body).toEqual({
        detail: 'Workspace names must be globally unique',
        code: 'REQUIRE_UNIQUE_ACCOUNT_NAMES',
      });
    }
    // A username cannot be taken by a workspace and then registered.
    const signup = await ts.api.post('/api/v1/registration/', {
      username: name.toLowerCase().replace(' ', '-'),
      email: `${uniq()}@example.com`,
      password1: 'Quiet-river-stones-7',
      password2: 'Quiet-river-stones-7',
      full_name: 'Late Comer',
    });
    expect(signup.status).toBe(400);
    expect(signup.body.username).toBeDefined();
  });

  it('stops at the plan workspace limit', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin, { workspaceLimit: 1 });
    expect(
      (await ts.api.as(admin.key).post(`${WS}/`, { name: shortName(), organization_id: org.id })).status,
    ).toBe(201);
    const res = await ts.api.as(admin.key).post(`${WS}/`, { name: shortName(), organization_id: org.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail:
        "Your organization has reached your plan's workspace limit. See plans to enable adding more workspaces.",
      code: 'WORKSPACE_LIMIT_REACHED',
      workspace_limit: 1,
    });
    const unlimited = await createOrganization(ts, admin, { workspaceLimit: null });
    for (let i = 0; i < 2; i++) {
      expect(
        (await ts.api.as(admin.key).post(`${WS}/`, { name: shortName(), organization_id: unlimited.id }))
          .status,
      ).toBe(201);
    }
  });

  it('is for organization admins only', async () => {
    const [admin, wsAdmin, outsider] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, wsAdmin, org, { workspaces: [{ workspace, isAdmin: true }] });
    const refused = await ts.api
      .as(wsAdmin.key)
      .post(`${WS}/`, { name: shortName(), organization_id: org.id });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('You must be an organization admin to add workspaces.');
    const hidden = await ts.api
      .as(outsider.key)
      .post(`${WS}/`, { name: shortName(), organization_id: org.id });
    expect(hidden.status).toBe(404);
  });
});

describe('reading workspaces', () => {
  it('lists all workspaces of an organization to its admins, and members only their own', async () => {
    const [admin, member] = [await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const [a, b] = [await createWorkspace(ts, org), await createWorkspace(ts, org)];
    await addMember(ts, member, org, { workspaces: [{ workspace: b }] });
    const forAdmin = await ts.api.as(admin.key).get(`${WS}/`, { query: { organization_id: org.id } });
    expect(forAdmin.body.items.map((w: { id: number }) => w.id).sort()).toEqual([a.id, b.id].sort());
    const forMember = await ts.api.as(member.key).get(`${WS}/`, { query: { organization_id: org.id } });
    expect(forMember.body).toMatchObject({ count: 1, items: [{ id: b.id }] });
    const everywhere = await ts.api.as(member.key).get(`${WS}/`);
    expect(everywhere.body.items.map((w: { slug: string }) => w.slug).sort()).toEqual(
      [b.slug, member.username].sort(),
    );
    const searched = await ts.api.as(admin.key).get(`${WS}/`, { query: { search: a.name } });
    expect(searched.body.items.map((w: { id: number }) => w.id)).toEqual([a.id]);
  });

  it('finds a workspace by slug, id or name, and says Workspace named {x} not found otherwise', async () => {
    const [admin, member, outsider] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org, { name: `Named${uniq('').slice(0, 20)}` });
    await addMember(ts, member, org, { workspaces: [{ workspace }] });
    const api = ts.api.as(member.key);
    for (const query of [
      { workspace_slug: workspace.slug } as Record<string, string | number>,
      { workspace_id: workspace.id },
      { workspace_name: workspace.name.toLowerCase() },
    ]) {
      const res = await api.get(`${WS}/details`, { query });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: workspace.id,
        membership_set: [expect.objectContaining({ is_admin: false })],
      });
    }
    for (const [query, shown] of [
      [{ workspace_slug: 'no-such-workspace' }, 'no-such-workspace'],
      [{ workspace_id: 99999 }, '99999'],
      [{ workspace_name: 'Nothing Here' }, 'Nothing Here'],
    ] as const) {
      const res = await api.get(`${WS}/details`, { query });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(`Workspace named ${shown} not found`);
    }
    const hidden = await ts.api
      .as(outsider.key)
      .get(`${WS}/details`, { query: { workspace_slug: workspace.slug } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.detail).toBe(`Workspace named ${workspace.slug} not found`);
    const none = await api.get(`${WS}/details`);
    expect(none.status).toBe(400);
  });

  it('pages the members of a workspace', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, admin, org, { role: 'admin', workspaces: [{ workspace, isAdmin: true }] });
    const others = [await createUser(ts), await createUser(ts)];
    for (const u of others) await addMember(ts, u, org, { workspaces: [{ workspace, coreLimit: 4 }] });
    const page = await ts.api.as(others[0]!.key).get(`/api/v2/workspaces/${workspace.slug}/members`, {
      query: { offset: 1, limit: 1 },
    });
    expect(page.body.count).toBe(3);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({ workspace_id: workspace.id, user: expect.any(Object) });
    const outsider = await createUser(ts);
    const hidden = await ts.api.as(outsider.key).get(`/api/v2/workspaces/${workspace.slug}/members`);
    expect(hidden.body.detail).toBe(`Workspace named ${workspace.slug} not found`);
  });
});

describe('changing a workspace', () => {
  it('sets the credit limit: required, at least 0, by workspace or organization admins', async () => {
    const [admin, wsAdmin, member] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, wsAdmin, org, { workspaces: [{ workspace, isAdmin: true }] });
    await addMember(ts, member, org, { workspaces: [{ workspace }] });
    const url = `${WS}/details/${workspace.id}`;
    const negative = await ts.api.as(wsAdmin.key).patch(url, { credit_limit: -1 });
    expect(negative.body).toEqual({ credit_limit: ['Credit limit must be greater than or equal to 0'] });
    const missing = await ts.api.as(wsAdmin.key).patch(url, {});
    expect(missing.body).toEqual({ credit_limit: ['A credit limit is required'] });
    const ok = await ts.api.as(wsAdmin.key).patch(url, { credit_limit: 0 });
    expect(ok.body.credit_limit).toBe(0);
    expect((await ts.api.as(admin.key).patch(url, { credit_limit: 250 })).body.credit_limit).toBe(250);
    // null clears it: no limit again.
    const cleared = await ts.api.as(wsAdmin.key).patch(url, { credit_limit: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.credit_limit).toBeNull();
    const read = await ts.api.as(admin.key).get(`${WS}/details`, { query: { workspace_id: workspace.id } });
    expect(read.body.credit_limit).toBeNull();
    const refused = await ts.api.as(member.key).patch(url, { credit_limit: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(`You are not an admin of ${workspace.name}`);
  });

  it('edits and removes a member row, resetting the member default workspace', async () => {
    const [admin, member] = [await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, admin, org, { role: 'admin' });
    const { workspaceMemberships: memberships } = await addMember(ts, member, org, {
      workspaces: [{ workspace }],
    });
    const row = memberships[0]!;
    const { db } = ts.server.deps;
    await db.update(users).set({ defaultWorkspaceId: workspace.id }).where(eq(users.id, member.id));
    const url = `${WS}/membership/${row.id}`;
    expect((await ts.api.as(member.key).patch(url, { is_admin: true })).status).toBe(403);
    const edited = await ts.api
      .as(admin.key)
      .patch(url, { is_admin: true, core_limit: 12, credit_limit: 34 });
    expect(edited.body).toMatchObject({ id: row.id, is_admin: true, core_limit: 12, credit_limit: 34 });
    // A member's credit limit may be no limit (null).
    const unlimited = await ts.api.as(admin.key).patch(url, { credit_limit: null });
    expect(unlimited.body).toMatchObject({ id: row.id, credit_limit: null });
    const [stored] = await db.select().from(workspaceMemberships).where(eq(workspaceMemberships.id, row.id));
    expect(stored!.creditLimit).toBeNull();
    const negative = await ts.api.as(admin.key).patch(url, { core_limit: -5 });
    expect(negative.body).toEqual({ core_limit: ['Core limit must be greater than or equal to 0'] });
    expect((await ts.api.as(admin.key).delete(url)).status).toBe(204);
    expect(await db.select().from(workspaceMemberships).where(eq(workspaceMemberships.id, row.id))).toEqual(
      [],
    );
    const me = await ts.api.as(member.key).get('/api/v2/user/me');
    expect(me.body.default_account.slug).toBe(member.username);
  });
});
