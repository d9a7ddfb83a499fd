import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles, workspaceMemberships, workspaces } from '../src/db/schema/index.js';
import { createUser, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

/** Adds `user` to `owner`'s personal workspace as a plain member. */
async function joinWorkspaceOf(ownerUsername: string, userId: number) {
  const [account] = await ts.server.deps.db
    .select()
    .from(workspaces)
    .where(eq(workspaces.slug, ownerUsername));
  await ts.server.deps.db
    .insert(workspaceMemberships)
    .values({ workspaceId: account!.id, userId, isAdmin: false });
  return account!;
}

describe('the current user', () => {
  it('reads user/me with the console fields in snake_case and explicit-offset timestamps', async () => {
    const user = await createUser(ts);
    const me = await ts.api.as(user.key).get('/api/v2/user/me');
    expect(Object.keys(me.body).sort()).toEqual(
      [
        'cumulus_hosted_monthly_limit',
        'date_joined',
        'default_account',
        'default_organization',
        'email',
        'email_verified',
        'full_name',
        'has_usable_password',
        'id',
        'is_staff',
        'last_login',
        'preferred_name',
        'profile',
        'should_see_notebook_page',
        'username',
      ].sort(),
    );
    expect(me.body.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(me.body.profile).toEqual({
      avatar_url: null,
      can_contact: false,
      company: '',
      phone_number: '',
      title: '',
      work_email: user.email,
      has_git_access_token: false,
      has_ssh_public_key: false,
    });
    expect((await ts.api.as(user.key).get('/api/v1/users/me/')).body.username).toBe(user.username);
  });

  it('lists workspace and organization memberships, the default first', async () => {
    const [owner, user] = [await createUser(ts), await createUser(ts)];
    const shared = await joinWorkspaceOf(owner.username, user.id);
    const list = await ts.api.as(user.key).get('/api/v2/user/me/memberships');
    expect(
      list.body.map((m: { account: { slug: string }; is_default_account: boolean; is_admin: boolean }) => [
        m.account.slug,
        m.is_default_account,
        m.is_admin,
      ]),
    ).toEqual([
      [user.username, true, true],
      [owner.username, false, false],
    ]);
    const orgs = await ts.api.as(user.key).get('/api/v2/users/user/organization/memberships');
    expect(orgs.body).toEqual([
      expect.objectContaining({
        role: 'admin',
        organization: expect.objectContaining({ name: user.username, is_personal: true }),
        workspace_memberships: [
          expect.objectContaining({ is_admin: true, core_limit: 1000, credit_limit: 100000 }),
        ],
      }),
    ]);
    const scopes = await ts.api.as(user.key).get('/api/v2/users/user/valid-scopes');
    expect(scopes.body[0]).toMatchObject({ type: 'compound', name: 'Everything' });
    expect(
      scopes.body
        .filter((s: { type: string }) => s.type === 'account')
        .map((s: { name: string }) => s.name)
        .sort(),
    ).toEqual([user.username, shared.name].sort());
  });

  it('reads usage only for workspaces the user can see', async () => {
    const [user, stranger] = [await createUser(ts), await createUser(ts)];
    const usage = await ts.api.as(user.key).get(`/api/v2/user/account/${user.username}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body.has_quota).toBe(true);
    const hidden = await ts.api.as(stranger.key).get(`/api/v2/user/account/${user.username}/usage`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.detail).toBe(`Workspace named ${user.username} not found`);
  });
});

describe('changing the user', () => {
  it('renames with the slug rule and answers 409 for a taken name', async () => {
    const [user, other] = [await createUser(ts), await createUser(ts)];
    const api = ts.api.as(user.key);
    const bad = await api.patch('/api/v1/users/me/', { username: 'not a slug!' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      username: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
    });
    const taken = await api.patch('/api/v1/users/me/', { username: other.username });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('That username already exists.');
    const renamed = uniq('new');
    const ok = await api.patch('/api/v1/users/me/', { username: renamed });
    expect(ok.status).toBe(200);
    expect(ok.body.username).toBe(renamed);
  });

  it('switches the default workspace only among the user own memberships', async () => {
    const [owner, user, stranger] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const shared = await joinWorkspaceOf(owner.username, user.id);
    const api = ts.api.as(user.key);
    const ok = await api.patch('/api/v1/users/me/', { default_account: shared.id });
    expect(ok.body.default_account.slug).toBe(owner.username);
    const [strangers] = await ts.server.deps.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.slug, stranger.username));
    const refused = await api.patch('/api/v1/users/me/', { default_account: strangers!.id });
    expect(refused.status).toBe(400);
    expect(refused.body.default_account[0]).toMatch(/^User/);
  });

  it('edits profile information with its rules', async () => {
    const user = await createUser(ts);
    const api = ts.api.as(user.key);
    const ok = await api.patch('/api/v1/users/me/profile/', {
      full_name: '  Ada Lovelace ',
      title: 'Analyst',
      company: 'Engines Ltd',
      phone_number: '+44 20-7946-0000',
      work_email: 'ADA@engines.example',
      can_contact: true,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      full_name: 'Ada Lovelace',
      title: 'Analyst',
      work_email: 'ada@engines.example',
      can_contact: true,
    });
    const bad = await api.patch('/api/v1/users/me/profile/', {
      phone_number: 'call me',
      work_email: 'nope',
      title: 'x'.repeat(151),
    });
    expect(bad.body).toEqual({
      phone_number: ['Can contain numbers and hyphens'],
      work_email: ['Please enter a valid email address'],
      title: ['Ensure this field has no more than 150 characters.'],
    });
    expect((await api.get('/api/v2/user/me')).body.profile.title).toBe('Analyst');
  });

  it('keeps the git access token encrypted and only tells whether one is set', async () => {
    const [user, other] = [await createUser(ts), await createUser(ts)];
    const api = ts.api.as(user.key);
    const set = await api.patch(`/api/v1/users/${user.id}/access_token/`, {
      git_access_token: 'ghp_secretvalue123',
    });
    expect(set.body).toEqual({ has_git_access_token: true });
    const [profile] = await ts.server.deps.db
      .select()
      .from(userProfiles)
      .where(eq(userProfiles.userId, user.id));
    expect(profile!.gitAccessTokenEnc).not.toContain('ghp_secretvalue123');
    expect(ts.server.deps.secrets.decrypt(profile!.gitAccessTokenEnc!)).toBe('ghp_secretvalue123');
    expect((await api.get('/api/v2/user/me')).body.profile.has_git_access_token).toBe(true);
    expect(JSON.stringify((await api.get('/api/v2/user/me')).body)).not.toContain('ghp_');
    expect(
      (await ts.api.as(other.key).patch(`/api/v1/users/${user.id}/access_token/`, { git_access_token: 'x' }))
        .status,
    ).toBe(404);
    const removed = await api.patch(`/api/v1/users/${user.id}/access_token/`, { git_access_token: null });
    expect(removed.body).toEqual({ has_git_access_token: false });
  });
});
