import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters, users } from '../src/db/schema/index.js';
import {
  createClusterRow,
  createOrganization,
  createUser,
  createWorkspace,
  PASSWORD,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, 60_000);
afterAll(() => ts.close());

const signIn = (username: string, password = PASSWORD, remoteAddress = '10.9.8.7') =>
  ts.api.post('/api/v1/auth/login/', { username, password }, { remoteAddress });

describe('staff: users', () => {
  it('finds users by part of their name or email', async () => {
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    const api = ts.api.as(staff.key);
    const byName = await api.get('/api/v2/staff/users', { query: { search: user.username.slice(2) } });
    expect(byName.body.items).toEqual([
      expect.objectContaining({
        id: user.id,
        username: user.username,
        email: user.email,
        is_staff: false,
        is_active: true,
        locked_out: false,
        email_verified: true,
        date_joined: expect.stringMatching(/\+00:00$/),
      }),
    ]);
    expect(byName.body.count).toBe(1);
    const byEmail = await api.get('/api/v2/staff/users', { query: { search: user.email.toUpperCase() } });
    expect(byEmail.body.items.map((u: { id: number }) => u.id)).toEqual([user.id]);
    // The newest first, paged.
    const page = await api.get('/api/v2/staff/users', { query: { limit: 1 } });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.count).toBeGreaterThanOrEqual(2);
  });

  it('shows who failed sign-ins locked out, and unlock lets them in again', async () => {
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    for (let i = 0; i < 5; i++) expect((await signIn(user.username, 'wrong-password-1')).status).toBe(400);
    expect((await signIn(user.username)).status).toBe(429);
    const api = ts.api.as(staff.key);
    const found = async () =>
      (await api.get('/api/v2/staff/users', { query: { search: user.username } })).body.items[0];
    expect(await found()).toMatchObject({ locked_out: true, is_active: true });
    expect((await api.post(`/api/v2/staff/users/${user.id}/unlock`, {})).status).toBe(200);
    expect(await found()).toMatchObject({ locked_out: false });
    expect((await signIn(user.username)).status).toBe(200);
  });

  it('locks a user out of everything, and unlocks them', async () => {
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    const api = ts.api.as(staff.key);
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(200);
    const locked = await api.patch(`/api/v2/staff/users/${user.id}`, { is_active: false });
    expect(locked.body).toMatchObject({ id: user.id, is_active: false });
    // The session they had and a new sign-in are both refused.
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);
    expect((await signIn(user.username)).status).toBe(400);
    expect((await api.patch(`/api/v2/staff/users/${user.id}`, { is_active: true })).body.is_active).toBe(
      true,
    );
    expect((await signIn(user.username)).status).toBe(200);
  });

  it('gives and takes the staff flag, never their own, and says what is wrong with a request', async () => {
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    const api = ts.api.as(staff.key);
    expect((await ts.api.as(user.key).get('/api/v2/staff/emails')).status).toBe(403);
    expect((await api.patch(`/api/v2/staff/users/${user.id}`, { is_staff: true })).body.is_staff).toBe(true);
    expect((await ts.api.as(user.key).get('/api/v2/staff/emails')).status).toBe(200);
    expect((await api.patch(`/api/v2/staff/users/${user.id}`, { is_staff: false })).body.is_staff).toBe(
      false,
    );

    const self = await api.patch(`/api/v2/staff/users/${staff.id}`, { is_staff: false });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ is_staff: ['You cannot remove your own staff flag.'] });
    const selfLock = await api.patch(`/api/v2/staff/users/${staff.id}`, { is_active: false });
    expect(selfLock.body).toEqual({ is_active: ['You cannot lock your own account.'] });
    expect((await ts.api.as(staff.key).get('/api/v2/user/me')).body.is_staff).toBe(true);
    expect((await api.patch(`/api/v2/staff/users/${user.id}`, {})).status).toBe(400);
    expect((await api.patch(`/api/v2/staff/users/${user.id}`, { is_staff: 'yes' })).body).toHaveProperty(
      'is_staff',
    );
    expect((await api.patch('/api/v2/staff/users/2147483647', { is_staff: true })).status).toBe(404);
  });

  it("shows the Notebooks page to everyone who can start a notebook, and staff's switch to the others", async () => {
    const staff = await createUser(ts, { staff: true });
    const user = await createUser(ts);
    const api = ts.api.as(staff.key);
    const me = async () => (await ts.api.as(user.key).get('/api/v2/user/me')).body.should_see_notebook_page;
    // A new user has a workspace to start one in (`cumulus notebook start` works for them): no switch needed.
    expect(await me()).toBe(true);
    // Without a workspace there is nowhere to start one, until staff switch the page on.
    await ts.server.deps.db.update(users).set({ defaultWorkspaceId: null }).where(eq(users.id, user.id));
    expect(await me()).toBe(false);
    const shown = await api.patch(`/api/v2/staff/users/${user.id}`, { should_see_notebook_page: true });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: user.id, should_see_notebook_page: true, is_staff: false });
    expect(await me()).toBe(true);
    const listed = await api.get('/api/v2/staff/users', { query: { search: user.username } });
    expect(listed.body.items[0].should_see_notebook_page).toBe(true);
    // Their own, too: it is no privilege.
    expect(
      (await api.patch(`/api/v2/staff/users/${staff.id}`, { should_see_notebook_page: true })).body
        .should_see_notebook_page,
    ).toBe(true);
    expect(
      (await api.patch(`/api/v2/staff/users/${user.id}`, { should_see_notebook_page: false })).body
        .should_see_notebook_page,
    ).toBe(false);
    expect(await me()).toBe(false);
    expect(
      (await ts.api.as(user.key).patch(`/api/v2/staff/users/${user.id}`, { should_see_notebook_page: true }))
        .status,
    ).toBe(403);
  });
});

describe('staff: clusters needing attention', () => {
  it('lists failed clusters until staff mark them seen', async () => {
    const staff = await createUser(ts, { staff: true });
    const owner = await createUser(ts);
    const organization = await createOrganization(ts, owner);
    const workspace = await createWorkspace(ts, organization);
    const failed = await createClusterRow(ts, workspace, owner, { state: 'stopped' });
    await ts.server.deps.db
      .update(clusters)
      .set({ state: 'error', stateReason: 'The scheduler exited (1)', stateUpdated: new Date() })
      .where(eq(clusters.id, failed.id));
    const fine = await createClusterRow(ts, workspace, owner);
    const api = ts.api.as(staff.key);
    const ids = async (seen: boolean) =>
      (await api.get('/api/v2/staff/clusters', { query: { seen, limit: 500 } })).body.items.map(
        (c: { id: number }) => c.id,
      );

    const unseen = (await api.get('/api/v2/staff/clusters', { query: { limit: 500 } })).body.items;
    const row = unseen.find((c: { id: number }) => c.id === failed.id);
    expect(row).toMatchObject({
      name: failed.name,
      reason: 'The scheduler exited (1)',
      current_state: { state: 'error' },
      account: { slug: workspace.slug },
      creator: { id: owner.id },
      staff_has_seen: false,
      staff_seen_by: null,
    });
    expect(await ids(false)).not.toContain(fine.id);

    const seen = await api.post(`/api/v2/clusters/account/${workspace.slug}/id/${failed.id}/staff-has-seen`);
    expect(seen.body.staff_has_seen).toBe(true);
    expect(await ids(false)).not.toContain(failed.id);
    const marked = (
      await api.get('/api/v2/staff/clusters', { query: { seen: true, limit: 500 } })
    ).body.items.find((c: { id: number }) => c.id === failed.id);
    expect(marked).toMatchObject({
      staff_has_seen: true,
      staff_seen_by: { id: staff.id, username: staff.username },
    });
    await api.post(`/api/v2/clusters/account/${workspace.slug}/id/${failed.id}/staff-has-seen`, undefined, {
      query: { seen: 0 },
    });
    expect(await ids(false)).toContain(failed.id);
    expect((await ts.api.as(owner.key).get('/api/v2/staff/clusters')).status).toBe(403);
  });
});
