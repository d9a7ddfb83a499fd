import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  organizationInvites,
  organizationMemberships,
  plans,
  workspaceMemberships,
} from '../src/db/schema/index.js';
import {
  addMember,
  createBareUser,
  createInviteRow,
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

const ORGS = '/api/v2/users/organizations';

/** An organization with two workspaces; `wsAdmin` administers only the first. */
async function team(options: { memberLimit?: number } = {}) {
  const admin = await createUser(ts);
  const wsAdmin = await createUser(ts);
  const member = await createUser(ts);
  const org = await createOrganization(ts, admin, options);
  const first = await createWorkspace(ts, org);
  const second = await createWorkspace(ts, org);
  await addMember(ts, admin, org, { role: 'admin' });
  await addMember(ts, wsAdmin, org, { workspaces: [{ workspace: first, isAdmin: true }] });
  await addMember(ts, member, org, { workspaces: [{ workspace: first }] });
  return { admin, wsAdmin, member, org, first, second };
}

/** The user's membership of that organization (everyone also has a personal one). */
const membershipOf = async (userId: number, organizationId: number) =>
  (
    await ts.server.deps.db
      .select()
      .from(organizationMemberships)
      .where(eq(organizationMemberships.userId, userId))
  ).find((m) => m.organizationId === organizationId)!;

const add = (caller: TestUser, body: Record<string, unknown>) =>
  ts.api.as(caller.key).post(`${ORGS}/add-membership`, body);

describe('adding a member', () => {
  it('adds a known user by username or email at once, with the default limits', async () => {
    const { admin, org, first, second } = await team();
    const [byName, byEmail] = [await createBareUser(ts), await createBareUser(ts)];
    const res = await add(admin, {
      email_or_username: byName.username.toUpperCase(),
      organization_id: org.id,
      workspaces: [{ workspace_id: first.id }],
    });
    expect(res.status).toBe(201);
    expect(res.body.invite).toBeNull();
    expect(res.body.membership).toMatchObject({
      role: 'member',
      organization_id: org.id,
      user: { id: byName.id, username: byName.username },
      workspace_memberships: [
        { workspace_id: first.id, is_admin: false, core_limit: 1000, credit_limit: 100000 },
      ],
    });
    const viaEmail = await add(admin, {
      email_or_username: byEmail.email.toUpperCase(),
      organization_id: org.id,
      role: 'admin',
      workspaces: [{ workspace_id: second.id, is_admin: true, core_limit: 8, credit_limit: null }],
    });
    expect(viaEmail.status).toBe(201);
    // null: no credit limit.
    expect(viaEmail.body.membership).toMatchObject({
      role: 'admin',
      workspace_memberships: [{ workspace_id: second.id, is_admin: true, core_limit: 8, credit_limit: null }],
    });
  });

  it('answers COULD_NOT_FIND_USER for an unknown username, on the field', async () => {
    const { admin, org } = await team();
    const res = await add(admin, { email_or_username: 'nobody-by-this-name', organization_id: org.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('COULD_NOT_FIND_USER');
    expect(res.body.email_or_username).toEqual([res.body.detail]);
    expect(res.body.detail).toContain('nobody-by-this-name');
  });

  it('requires the username or email, and limits of at least 0', async () => {
    const { admin, org, first } = await team();
    const empty = await add(admin, { email_or_username: ' ', organization_id: org.id });
    expect(empty.body).toEqual({ email_or_username: ['Username or Email is required'] });
    const negative = await add(admin, {
      email_or_username: 'x@example.com',
      organization_id: org.id,
      workspaces: [{ workspace_id: first.id, credit_limit: -1, core_limit: -1 }],
    });
    expect(negative.body).toEqual({
      'workspaces.0.credit_limit': ['Credit limit must be greater than or equal to 0'],
      'workspaces.0.core_limit': ['Core limit must be greater than or equal to 0'],
    });
    const bad = await add(admin, { email_or_username: 'not@an-address', organization_id: org.id });
    expect(bad.body).toEqual({ email_or_username: ['Enter a valid email address.'] });
  });

  it('answers 409 with the existing membership id for a member, and the invite id for an invitee', async () => {
    const { admin, member, org } = await team();
    const existing = await membershipOf(member.id, org.id);
    const again = await add(admin, { email_or_username: member.username, organization_id: org.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      detail: 'User is already a member of this organization.',
      code: 'ALREADY_MEMBER',
      membership_id: existing.id,
    });
    const email = `${uniq('twice')}@example.com`;
    const first = await add(admin, { email_or_username: email, organization_id: org.id });
    const second = await add(admin, { email_or_username: email, organization_id: org.id });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'ALREADY_INVITED', invite_id: first.body.invite.id });
  });

  it('blocks when members plus pending invites plus one exceed the member limit', async () => {
    // admin, wsAdmin and member: three members; one pending invite makes four.
    const { admin, org } = await team({ memberLimit: 5 });
    await createInviteRow(ts, org);
    expect(
      (await add(admin, { email_or_username: `${uniq('fifth')}@example.com`, organization_id: org.id }))
        .status,
    ).toBe(201);
    const blocked = await add(admin, {
      email_or_username: (await createBareUser(ts)).username,
      organization_id: org.id,
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body).toEqual({
      detail: 'Your organization is using 5 of 5 allowed seats. Upgrade your plan to add more members.',
      code: 'MEMBER_LIMIT_REACHED',
      seats_used: 5,
      member_limit: 5,
    });
    // Expired invites no longer hold a seat.
    const [expiring] = await ts.server.deps.db
      .select()
      .from(organizationInvites)
      .where(eq(organizationInvites.organizationId, org.id));
    await ts.server.deps.db
      .update(organizationInvites)
      .set({ expiration: new Date(Date.now() - 1000) })
      .where(eq(organizationInvites.id, expiring!.id));
    const details = await ts.api.as(admin.key).get(`${ORGS}/details/${org.id}`);
    expect(details.body).toMatchObject({ member_count: 3, pending_invite_count: 1, member_limit: 5 });
    expect(
      (await add(admin, { email_or_username: (await createBareUser(ts)).username, organization_id: org.id }))
        .status,
    ).toBe(201);
  });

  it("blocks adding beyond the plan's seat limit like the member limit, members and invites alike", async () => {
    // admin, wsAdmin and member hold three seats of four.
    const { admin, org } = await team();
    await ts.server.deps.db
      .update(plans)
      .set({ seatLimit: 4, memberLimit: 50 })
      .where(and(eq(plans.organizationId, org.id), isNull(plans.ended)));
    expect(
      (await add(admin, { email_or_username: (await createBareUser(ts)).username, organization_id: org.id }))
        .status,
    ).toBe(201);
    const refused = {
      detail: 'Your organization is using 4 of 4 allowed seats. Upgrade your plan to add more members.',
      code: 'SEAT_LIMIT_REACHED',
      seats_used: 4,
      seat_limit: 4,
    };
    const byName = await add(admin, {
      email_or_username: (await createBareUser(ts)).username,
      organization_id: org.id,
    });
    expect(byName.status).toBe(400);
    expect(byName.body).toEqual(refused);
    const byEmail = await add(admin, {
      email_or_username: `${uniq('seat')}@example.com`,
      organization_id: org.id,
    });
    expect(byEmail.body).toEqual(refused);
    const details = await ts.api.as(admin.key).get(`${ORGS}/details/${org.id}`);
    expect(details.body).toMatchObject({ member_count: 4, pending_invite_count: 0, seat_limit: 4 });
    // No seat limit: no refusal.
    await ts.server.deps.db
      .update(plans)
      .set({ seatLimit: null })
      .where(and(eq(plans.organizationId, org.id), isNull(plans.ended)));
    expect(
      (await add(admin, { email_or_username: (await createBareUser(ts)).username, organization_id: org.id }))
        .status,
    ).toBe(201);
  });

  it('lets workspace admins add teammates only into the workspaces they administer, never as admin', async () => {
    const { wsAdmin, member, org, first, second } = await team();
    const target = await createBareUser(ts);
    const elsewhere = await add(wsAdmin, {
      email_or_username: target.username,
      organization_id: org.id,
      workspaces: [{ workspace_id: second.id }],
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.detail).toBe(`You are not an admin of ${second.name}`);
    const nowhere = await add(wsAdmin, { email_or_username: target.username, organization_id: org.id });
    expect(nowhere.body.detail).toBe('You must be an organization or workspace admin to add team mates.');
    const asAdmin = await add(wsAdmin, {
      email_or_username: target.username,
      organization_id: org.id,
      role: 'admin',
      workspaces: [{ workspace_id: first.id }],
    });
    expect(asAdmin.status).toBe(403);
    const ok = await add(wsAdmin, {
      email_or_username: target.username,
      organization_id: org.id,
      workspaces: [{ workspace_id: first.id }],
    });
    expect(ok.status).toBe(201);
    const plain = await add(member, {
      email_or_username: (await createBareUser(ts)).username,
      organization_id: org.id,
      workspaces: [{ workspace_id: first.id }],
    });
    expect(plain.status).toBe(403);
    expect(plain.body.detail).toBe('You must be an organization or workspace admin to add team mates.');
  });

  it('refuses workspaces of another organization', async () => {
    const { admin, org } = await team();
    const foreign = await createWorkspace(ts, await createOrganization(ts, admin));
    const res = await add(admin, {
      email_or_username: (await createBareUser(ts)).username,
      organization_id: org.id,
      workspaces: [{ workspace_id: foreign.id }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ workspaces: [`Workspace ${foreign.id} is not part of this organization.`] });
  });
});

describe('reading members', () => {
  it('pages the members with their workspace rows, and reads one membership', async () => {
    const { admin, member, org, first } = await team();
    const api = ts.api.as(member.key);
    const page = await api.get(`${ORGS}/members/${org.id}`, { query: { limit: 2 } });
    expect(page.body.count).toBe(3);
    expect(page.body.items).toHaveLength(2);
    const mine = (await api.get(`${ORGS}/members/${org.id}`, { query: { search: member.username } })).body
      .items[0];
    expect(mine).toMatchObject({
      role: 'member',
      user: { username: member.username, profile: { avatar_url: null } },
      workspace_memberships: [
        { workspace_id: first.id, is_admin: false, core_limit: 1000, credit_limit: 100000 },
      ],
      displayed_pro_trial_expiration: null,
    });
    const one = await ts.api.as(admin.key).get(`${ORGS}/membership/${mine.id}`);
    expect(one.body).toEqual(mine);
  });
});

describe('editing a member', () => {
  it('changes the role only as an organization admin, and keeps one admin', async () => {
    const { admin, wsAdmin, member, org } = await team();
    const target = await membershipOf(member.id, org.id);
    const url = `${ORGS}/update-membership/${target.id}`;
    const refused = await ts.api.as(wsAdmin.key).patch(url, { role: 'admin' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('You must be an organization admin to do this.');
    const promoted = await ts.api.as(admin.key).patch(url, { role: 'admin' });
    expect(promoted.body.role).toBe('admin');
    const adminMembership = await membershipOf(admin.id, org.id);
    expect((await ts.api.as(admin.key).patch(url, { role: 'member' })).status).toBe(200);
    const last = await ts.api
      .as(admin.key)
      .patch(`${ORGS}/update-membership/${adminMembership.id}`, { role: 'member' });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({
      detail: 'An organization must have at least one admin.',
      code: 'LAST_ADMIN',
    });
  });

  it('sets the member workspace rows: adds, updates and removes the ones the caller administers', async () => {
    const { admin, wsAdmin, member, org, first, second } = await team();
    const target = await membershipOf(member.id, org.id);
    const url = `${ORGS}/update-membership/${target.id}`;
    const both = await ts.api.as(admin.key).patch(url, {
      workspaces: [
        { workspace_id: first.id, is_admin: false, core_limit: 10, credit_limit: 20 },
        { workspace_id: second.id, is_admin: true, core_limit: 1000, credit_limit: 100000 },
      ],
    });
    expect(both.status).toBe(200);
    expect(
      both.body.workspace_memberships.map((w: { workspace_id: number }) => w.workspace_id).sort(),
    ).toEqual([first.id, second.id].sort());
    // The workspace admin of `first` leaves `second` out: it is not theirs, so it stays.
    const dropFirst = await ts.api.as(wsAdmin.key).patch(url, { workspaces: [] });
    expect(dropFirst.body.workspace_memberships).toEqual([
      expect.objectContaining({ workspace_id: second.id, is_admin: true }),
    ]);
    const touchSecond = await ts.api.as(wsAdmin.key).patch(url, {
      workspaces: [{ workspace_id: second.id, is_admin: false }],
    });
    expect(touchSecond.status).toBe(403);
    expect(touchSecond.body.detail).toBe(`You are not an admin of ${second.name}`);
    const dup = await ts.api.as(admin.key).patch(url, {
      workspaces: [{ workspace_id: second.id }, { workspace_id: second.id }],
    });
    expect(dup.body).toEqual({ workspaces: ['Each workspace may be listed once.'] });
  });
});

describe('removing a member', () => {
  it('takes the member out of the organization and its workspaces, as the rules allow', async () => {
    const { admin, wsAdmin, member, org, first, second } = await team();
    const [twoWorkspaces] = [await createBareUser(ts)];
    const spread = await addMember(ts, twoWorkspaces, org, {
      workspaces: [{ workspace: first }, { workspace: second }],
    });
    // A workspace admin cannot remove someone who is also in a workspace they do not administer...
    const refused = await ts.api.as(wsAdmin.key).delete(`${ORGS}/remove-membership/${spread.membership.id}`);
    expect(refused.status).toBe(403);
    // ...but can remove a member of their workspace only.
    const target = await membershipOf(member.id, org.id);
    expect((await ts.api.as(wsAdmin.key).delete(`${ORGS}/remove-membership/${target.id}`)).status).toBe(204);
    expect(
      await ts.server.deps.db
        .select()
        .from(workspaceMemberships)
        .where(eq(workspaceMemberships.userId, member.id)),
    ).toHaveLength(1); // their personal workspace
    expect((await ts.api.as(member.key).get(`${ORGS}/details/${org.id}`)).status).toBe(404);
    expect(
      (await ts.api.as(admin.key).delete(`${ORGS}/remove-membership/${spread.membership.id}`)).status,
    ).toBe(204);
    const adminMembership = (
      await ts.server.deps.db
        .select()
        .from(organizationMemberships)
        .where(eq(organizationMemberships.userId, admin.id))
    ).find((m) => m.organizationId === org.id)!;
    const last = await ts.api.as(admin.key).delete(`${ORGS}/remove-membership/${adminMembership.id}`);
    expect(last.body.code).toBe('LAST_ADMIN');
  });
});
