import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users, workspaces } from '../src/db/schema/index.js';
import { TIER_LIMITS } from '../src/domains/billing/plans/tiers.js';
import { addMember, createOrganization, createUser, createWorkspace, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

const ORGS = '/api/v2/users/organizations';

describe('creating an organization', () => {
  it('checks the name with the spec messages and writes nothing on failure', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const cases: Array<[unknown, string]> = [
      [undefined, 'Organization name is required'],
      ['   ', 'Organization name is required'],
      ['abc', 'Must be at least 4 characters'],
      ['x'.repeat(35), 'Must be less than 34 characters'],
    ];
    for (const [name, message] of cases) {
      const res = await api.post(`${ORGS}/create`, name === undefined ? {} : { name });
      expect(res.status, String(name)).toBe(400);
      expect(res.body).toEqual({ name: [message] });
    }
    const list = await api.get(`${ORGS}/`);
    expect(list.body.count).toBe(1); // only the personal organization
  });

  it('makes the creator its admin and puts it on the default plan', async () => {
    const user = await createUser(ts);
    const name = `Lab ${uniq('o').slice(0, 20)}`;
    const res = await ts.api.as(user.key).post(`${ORGS}/create`, { name: `  ${name} ` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      is_personal: false,
      feature_tier: 'free',
      member_limit: TIER_LIMITS.free.memberLimit,
      workspace_limit: TIER_LIMITS.free.workspaceLimit,
      seat_limit: TIER_LIMITS.free.seatLimit,
      member_count: 1,
      pending_invite_count: 0,
      workspace_count: 0,
      custom_groups: [],
      member_set: [
        { role: 'admin', user: expect.objectContaining({ id: user.id, username: user.username }) },
      ],
    });
    expect(res.body.created).toMatch(/\+00:00$/);
    // Names of exactly 4 and 34 characters are fine.
    for (const edge of ['four', 'y'.repeat(34)]) {
      expect((await ts.api.as(user.key).post(`${ORGS}/create`, { name: edge })).status).toBe(201);
    }
    const memberships = await ts.api.as(user.key).get('/api/v2/users/user/organization/memberships');
    expect(memberships.body.map((m: { organization: { name: string } }) => m.organization.name)).toContain(
      name,
    );
  });
});

describe('reading organizations', () => {
  it('lists the user own organizations with their role, searchable and paged', async () => {
    const admin = await createUser(ts);
    const member = await createUser(ts);
    const tag = uniq('srch');
    const mine = await createOrganization(ts, admin, { name: `${tag} alpha` });
    const theirs = await createOrganization(ts, admin, { name: `${tag} beta` });
    await addMember(ts, member, theirs);
    const api = ts.api.as(member.key);
    const all = await api.get(`${ORGS}/`);
    expect(all.body.count).toBe(2);
    expect(all.body.items.map((o: { name: string; role: string }) => [o.name, o.role])).toEqual(
      [
        [member.username, 'admin'],
        [theirs.name, 'member'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const found = await api.get(`${ORGS}/`, { query: { search: tag } });
    expect(found.body.items.map((o: { id: number }) => o.id)).toEqual([theirs.id]);
    const adminPage = await ts.api
      .as(admin.key)
      .get(`${ORGS}/`, { query: { search: tag, limit: 1, offset: 1 } });
    expect(adminPage.body).toMatchObject({ count: 2, items: [{ id: theirs.id }] });
    expect(mine.id).not.toBe(theirs.id);
  });

  it('shows details to members and staff and answers 404 to everyone else', async () => {
    const [admin, member, outsider, staff] = [
      await createUser(ts),
      await createUser(ts),
      await createUser(ts),
      await createUser(ts, { staff: true }),
    ];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, member, org, { workspaces: [{ workspace }] });
    const url = `${ORGS}/details/${org.id}`;
    const seen = await ts.api.as(member.key).get(url);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ member_count: 2, workspace_count: 1 });
    expect(seen.body.member_set.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'member']);
    expect((await ts.api.as(staff.key).get(url)).status).toBe(200);
    const hidden = await ts.api.as(outsider.key).get(url);
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.body)).not.toContain(org.name);
    expect((await ts.api.as(outsider.key).get(`${ORGS}/details/999999`)).status).toBe(404);
  });

  it('gives staff every organization, by name, start of name and custom group', async () => {
    const [admin, staff, member] = [
      await createUser(ts),
      await createUser(ts, { staff: true }),
      await createUser(ts),
    ];
    const tag = uniq('st');
    const org = await createOrganization(ts, admin, { name: `${tag}-one` });
    const other = await createOrganization(ts, admin, { name: `${tag}-two` });
    const api = ts.api.as(staff.key);
    const list = await api.get(`${ORGS}/staff-list`, { query: { search: tag } });
    expect(list.body.items.map((o: { id: number; role: null }) => [o.id, o.role])).toEqual([
      [org.id, null],
      [other.id, null],
    ]);
    const values = await api.get(`${ORGS}/staff-list-values`, { query: { starts_with: `${tag}-t` } });
    expect(values.body).toEqual({ items: [{ id: other.id, name: other.name }], count: 1 });
    const group = uniq('grp');
    expect(
      (await api.post('/api/v2/users/group/organization', { organization_id: org.id, groups: [group] }))
        .status,
    ).toBe(200);
    const grouped = await api.get(`${ORGS}/staff-list`, { query: { custom_group: group } });
    expect(grouped.body.items.map((o: { id: number }) => o.id)).toEqual([org.id]);
    expect((await ts.api.as(member.key).get(`${ORGS}/staff-list`)).status).toBe(403);
    expect((await ts.api.as(member.key).get(`${ORGS}/staff-list-values`)).status).toBe(403);
  });
});

describe('deleting an organization', () => {
  it('is for its admins, refuses personal organizations and takes workspaces and defaults along', async () => {
    const [admin, member] = [await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, member, org, { workspaces: [{ workspace, isAdmin: true }] });
    const { db } = ts.server.deps;
    await db
      .update(users)
      .set({ defaultWorkspaceId: workspace.id, defaultOrganizationId: org.id })
      .where(eq(users.id, member.id));

    const refused = await ts.api.as(member.key).delete(`${ORGS}/delete/${org.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('You must be an organization admin to do this.');

    const [personal] = await db.select().from(workspaces).where(eq(workspaces.slug, admin.username));
    const personalDelete = await ts.api.as(admin.key).delete(`${ORGS}/delete/${personal!.organizationId}`);
    expect(personalDelete.status).toBe(400);
    expect(personalDelete.body).toMatchObject({ code: 'PERSONAL_ORGANIZATION' });

    expect((await ts.api.as(admin.key).delete(`${ORGS}/delete/${org.id}`)).status).toBe(204);
    expect(await db.select().from(organizations).where(eq(organizations.id, org.id))).toEqual([]);
    expect(await db.select().from(workspaces).where(eq(workspaces.id, workspace.id))).toEqual([]);
    const me = await ts.api.as(member.key).get('/api/v2/user/me');
    expect(me.body.default_account.slug).toBe(member.username);
    expect(me.body.default_organization.is_personal).toBe(true);
  });
});

describe('the default organization', () => {
  it('switches among the user own organizations, moving the default workspace into it', async () => {
    const [admin, member, outsider] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    await addMember(ts, member, org, { workspaces: [{ workspace }] });
    const res = await ts.api
      .as(member.key)
      .post('/api/v2/users/user/change-default-organization', { organization_id: org.id });
    expect(res.status).toBe(200);
    expect(res.body.default_organization).toEqual({ id: org.id, name: org.name, is_personal: false });
    expect(res.body.default_account.slug).toBe(workspace.slug);
    const refused = await ts.api
      .as(outsider.key)
      .post('/api/v2/users/user/change-default-organization', { organization_id: org.id });
    expect(refused.status).toBe(404);
  });
});
