import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveScope } from '../src/domains/identity/access/scopes.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import {
  addMember,
  createOrganization,
  createUser,
  createWorkspace,
  type TestUser,
  uniq,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

const userOf = async (u: TestUser) => (await findUserBy(ts.server.deps.db, 'id', u.id))!;

describe('custom groups', () => {
  it('lets staff label organizations, replacing the labels and dropping empty groups', async () => {
    const [staff, admin] = [await createUser(ts, { staff: true }), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const api = ts.api.as(staff.key);
    const [a, b] = [uniq('ga'), uniq('gb')];
    const set = await api.post('/api/v2/users/group/organization', {
      organization_id: org.id,
      groups: [b, a, a],
    });
    expect(set.body).toEqual({ organization_id: org.id, groups: [a, b].sort() });
    const list = await api.get('/api/v2/users/group/list', { query: { limit: 500 } });
    expect(list.body.items).toContainEqual(
      expect.objectContaining({
        name: a,
        organizations: [{ id: org.id, name: org.name, is_personal: false }],
      }),
    );
    await api.post('/api/v2/users/group/organization', { organization_id: org.id, groups: [a] });
    const after = await api.get('/api/v2/users/group/list', { query: { limit: 500 } });
    expect(after.body.items.map((g: { name: string }) => g.name)).not.toContain(b);
    // The labels are staff's: the organization's own admin does not see them.
    const details = (id: string) => ts.api.as(id).get(`/api/v2/users/organizations/details/${org.id}`);
    expect((await details(staff.key)).body.custom_groups).toEqual([a]);
    expect((await details(admin.key)).body.custom_groups).toEqual([]);
    expect(
      (await api.post('/api/v2/users/group/organization', { organization_id: 999999, groups: [] })).status,
    ).toBe(404);
  });
});

describe('valid scopes', () => {
  it('offers everything, organizations, workspaces and the user; staff also get staff lists', async () => {
    const [staff, admin] = [await createUser(ts, { staff: true }), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    const group = uniq('grp');
    await ts.api
      .as(staff.key)
      .post('/api/v2/users/group/organization', { organization_id: org.id, groups: [group] });
    await addMember(ts, admin, org, { role: 'admin', workspaces: [{ workspace, isAdmin: true }] });

    const mine = await ts.api.as(admin.key).get('/api/v2/users/user/valid-scopes');
    expect(mine.body.map((s: { type: string }) => s.type)).toEqual([
      'compound',
      'organization',
      'organization',
      'account',
      'account',
      'user',
    ]);
    expect(mine.body).toContainEqual({
      type: 'organization',
      id: org.id,
      name: org.name,
      slug: null,
      email: null,
      workspace_names: [workspace.name],
      organization_id: org.id,
    });
    // An account scope names its workspace by slug too: the `account` list filter takes the slug.
    expect(mine.body).toContainEqual({
      type: 'account',
      id: workspace.id,
      name: workspace.name,
      slug: workspace.slug,
      email: null,
      workspace_names: [workspace.name],
      organization_id: org.id,
    });

    const staffs = await ts.api.as(staff.key).get('/api/v2/users/user/valid-scopes');
    const custom = staffs.body.filter((s: { type: string }) => s.type === 'custom_staff');
    expect(custom[0]).toMatchObject({ id: 'all', name: 'All workspaces (staff)' });
    expect(custom).toContainEqual(
      expect.objectContaining({ name: group, workspace_names: [workspace.name] }),
    );
  });

  it('resolves a scope filter to the workspaces a list may show', async () => {
    const [staff, admin, member, outsider] = [
      await createUser(ts, { staff: true }),
      await createUser(ts),
      await createUser(ts),
      await createUser(ts),
    ];
    const org = await createOrganization(ts, admin);
    const [a, b] = [await createWorkspace(ts, org), await createWorkspace(ts, org)];
    await addMember(ts, member, org, { workspaces: [{ workspace: a }] });
    const { db } = ts.server.deps;
    const [asAdmin, asMember, asOutsider, asStaff] = await Promise.all([
      userOf(admin),
      userOf(member),
      userOf(outsider),
      userOf(staff),
    ]);
    const sorted = (ids: number[] | null) => (ids ? [...ids].sort() : ids);

    expect((await resolveScope(db, asMember, { account: a.slug })).workspaceIds).toEqual([a.id]);
    await expect(resolveScope(db, asMember, { account: b.slug })).rejects.toMatchObject({ statusCode: 404 });
    expect(sorted((await resolveScope(db, asAdmin, { organization: org.id })).workspaceIds)).toEqual(
      sorted([a.id, b.id]),
    );
    expect((await resolveScope(db, asMember, { organization: org.id })).workspaceIds).toEqual([a.id]);
    await expect(resolveScope(db, asOutsider, { organization: org.id })).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await resolveScope(db, asMember, { user: member.id })).toMatchObject({ userId: member.id });
    await expect(resolveScope(db, asMember, { user: admin.id })).rejects.toMatchObject({ statusCode: 404 });
    expect(await resolveScope(db, asStaff, { user: admin.id })).toEqual({
      workspaceIds: null,
      userId: admin.id,
    });
    await expect(resolveScope(db, asMember, { custom_staff_scope: 'all' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(await resolveScope(db, asStaff, { custom_staff_scope: 'all' })).toEqual({
      workspaceIds: null,
      userId: null,
    });
    const group = uniq('grp');
    await ts.api
      .as(staff.key)
      .post('/api/v2/users/group/organization', { organization_id: org.id, groups: [group] });
    const scopes = await ts.api.as(staff.key).get('/api/v2/users/user/valid-scopes');
    const groupId = scopes.body.find((s: { name: string }) => s.name === group).id;
    expect(sorted((await resolveScope(db, asStaff, { custom_staff_scope: groupId })).workspaceIds)).toEqual(
      sorted([a.id, b.id]),
    );
    const everything = await resolveScope(db, asMember, { compound_scope: 'everything' });
    expect(sorted(everything.workspaceIds)).toHaveLength(2); // their personal workspace and `a`
  });
});
