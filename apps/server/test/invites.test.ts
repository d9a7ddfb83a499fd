import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  organizationInvites,
  organizationMemberships,
  users,
  workspaceMemberships,
} from '../src/db/schema/index.js';
import { sha256 } from '../src/lib/crypto.js';
import {
  addMember,
  createInviteRow,
  createOrganization,
  createUser,
  createWorkspace,
  PASSWORD,
  uniq,
} from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { linkIn } from './helpers/smtp.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

const INVITES = '/api/v2/users/invites';

const signUp = (username: string, email: string) =>
  ts.api.post('/api/v1/registration/', {
    username,
    email,
    password1: PASSWORD,
    password2: PASSWORD,
    full_name: 'Invited Person',
  });

/** An organization with a workspace whose admin invited a new address through the Add form. */
async function inviteByEmail(role: 'admin' | 'member', prefix: string) {
  const admin = await createUser(ts);
  const org = await createOrganization(ts, admin);
  const workspace = await createWorkspace(ts, org);
  const email = `${uniq(prefix)}@example.com`;
  const added = await ts.api.as(admin.key).post('/api/v2/users/organizations/add-membership', {
    email_or_username: email,
    organization_id: org.id,
    role,
    workspaces: [{ workspace_id: workspace.id, is_admin: role === 'admin', core_limit: 8, credit_limit: 10 }],
  });
  expect(added.status, added.text).toBe(201);
  expect(added.body.invite).not.toBeNull();
  return { admin, org, workspace, email, added };
}

describe('inviting by email', () => {
  it('mails the invite; the invitee signs up through it, verifies, logs in and sees the workspace', async () => {
    const admin = await createUser(ts);
    const api = ts.api.as(admin.key);
    const org = await api.post('/api/v2/users/organizations/create', {
      name: `Team ${uniq('').slice(0, 20)}`,
    });
    const workspace = await api.post('/api/v2/users/workspaces/', {
      name: `Lab ${uniq('').slice(0, 20)}`,
      organization_id: org.body.id,
    });
    const email = `${uniq('newbie')}@Example.com`;
    const added = await api.post('/api/v2/users/organizations/add-membership', {
      email_or_username: email,
      organization_id: org.body.id,
      role: 'member',
      workspaces: [{ workspace_id: workspace.body.id, is_admin: false, core_limit: 64, credit_limit: 500 }],
    });
    expect(added.status).toBe(201);
    expect(added.body.membership).toBeNull();
    const lower = email.toLowerCase();
    expect(added.body.invite).toMatchObject({
      organization_id: org.body.id,
      role: 'member',
      expired: false,
      invite: { email: lower },
      workspace_invites: [
        { workspace_id: workspace.body.id, core_limit: 64, credit_limit: 500, is_admin: false, email: lower },
      ],
    });
    expect(added.body.invite.organization_invite_id).toBe(added.body.invite.id);
    const days = (Date.parse(added.body.invite.expiration) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const mail = await ts.smtp.waitFor(lower, (m) => m.subject.includes(org.body.name));
    expect(mail.subject).toBe(`Test ${admin.username} invited you to ${org.body.name} on Cumulus`);
    expect(mail.text).toContain(`with access to the workspace ${workspace.body.name}`);
    const signupLink = linkIn(mail, /http:\/\/cumulus\.test\/signup\?\S+/);
    // The links carry a 256-bit token, not the invite's id.
    const token = new URL(signupLink).searchParams.get('invite')!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(signupLink).toBe(`http://cumulus.test/signup?invite=${token}&email=${encodeURIComponent(lower)}`);
    expect(linkIn(mail, /http:\/\/cumulus\.test\/login\?\S+/)).toBe(
      `http://cumulus.test/login?open=true&invite=${token}&email=${encodeURIComponent(lower)}`,
    );
    const [stored] = await ts.server.deps.db
      .select()
      .from(organizationInvites)
      .where(eq(organizationInvites.id, added.body.invite.id));
    expect(stored!.tokenHash).toBe(sha256(token));
    const seats = await api.get(`/api/v2/users/organizations/details/${org.body.id}`);
    expect(seats.body).toMatchObject({ member_count: 1, pending_invite_count: 1 });

    // The sign-up form fills the address in from the link.
    const invitedEmail = new URL(signupLink).searchParams.get('email')!;
    const username = uniq('joiner');
    expect((await signUp(username, invitedEmail)).status).toBe(201);
    const verification = await ts.smtp.waitFor(lower, (m) => m.subject.startsWith('Confirm'));
    const key = linkIn(verification, /verify-email-confirm\/\S+/)
      .split('/')
      .pop();
    expect((await ts.api.post('/api/v1/registration/verify-email/', { key })).status).toBe(200);
    const login = await ts.api.post('/api/v1/auth/login/', { username, password: PASSWORD });
    expect(login.status).toBe(200);
    const memberships = await ts.api.as(login.body.key).get('/api/v2/user/me/memberships');
    expect(memberships.body).toContainEqual(
      expect.objectContaining({
        account: expect.objectContaining({ id: workspace.body.id, name: workspace.body.name }),
        is_admin: false,
        core_limit: 64,
        credit_limit: 500,
      }),
    );
    const after = await api.get(`/api/v2/users/organizations/details/${org.body.id}`);
    expect(after.body).toMatchObject({ member_count: 2, pending_invite_count: 0 });
    expect((await api.get(`${INVITES}/organization/${org.body.id}`)).body.count).toBe(0);
  });

  it('is accepted at login when the address got an account before the invite', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    const person = await createUser(ts);
    // An invite for the address, as left behind if the account was made later with the same email.
    await createInviteRow(ts, org, { email: person.email, workspaces: [{ workspace, isAdmin: true }] });
    const login = await ts.api.post('/api/v1/auth/login/', { email: person.email, password: PASSWORD });
    const memberships = await ts.api.as(login.body.key).get('/api/v2/user/me/memberships');
    expect(memberships.body).toContainEqual(
      expect.objectContaining({ account: expect.objectContaining({ id: workspace.id }), is_admin: true }),
    );
    const orgs = await ts.api.as(login.body.key).get('/api/v2/users/user/organization/memberships');
    expect(orgs.body.map((o: { organization_id: number }) => o.organization_id)).toContain(org.id);
  });

  it('refuses an expired invite at sign-up and keeps it for an admin to resend', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, org);
    const email = `${uniq('late')}@example.com`;
    const { invite } = await createInviteRow(ts, org, {
      email,
      workspaces: [{ workspace }],
      expiresInMs: -1000,
    });
    const username = uniq('late');
    expect((await signUp(username, email)).status).toBe(201);
    const { db } = ts.server.deps;
    const [user] = await db.select().from(users).where(eq(users.username, username));
    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user!.id));
    const login = await ts.api.post('/api/v1/auth/login/', { username, password: PASSWORD });
    const memberships = await ts.api.as(login.body.key).get('/api/v2/user/me/memberships');
    expect(memberships.body.map((m: { account: { id: number } }) => m.account.id)).not.toContain(
      workspace.id,
    );
    const listed = await ts.api.as(admin.key).get(`${INVITES}/organization/${org.id}`);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: invite.id, expired: true })]);

    // Resending mails it again and gives it a fresh expiration; the next login accepts it.
    const resent = await ts.api.as(admin.key).post(`${INVITES}/organization-invite-resend/${invite.id}`);
    expect(resent.status).toBe(200);
    expect(resent.body.expired).toBe(false);
    await ts.smtp.waitFor(email, (m) => m.subject.includes(org.name));
    const again = await ts.api.post('/api/v1/auth/login/', { username, password: PASSWORD });
    const now = await ts.api.as(again.body.key).get('/api/v2/user/me/memberships');
    expect(now.body.map((m: { account: { id: number } }) => m.account.id)).toContain(workspace.id);
  });
});

describe("an invited address is its confirmed owner's", () => {
  const db = () => ts.server.deps.db;
  const userNamed = async (username: string) =>
    (await db().select().from(users).where(eq(users.username, username)))[0]!;
  const roleIn = async (userId: number, organizationId: number) =>
    (
      await db()
        .select({ role: organizationMemberships.role })
        .from(organizationMemberships)
        .where(
          and(
            eq(organizationMemberships.userId, userId),
            eq(organizationMemberships.organizationId, organizationId),
          ),
        )
    )[0]?.role ?? null;
  const workspacesOf = async (userId: number) =>
    (await db().select().from(workspaceMemberships).where(eq(workspaceMemberships.userId, userId))).map(
      (m) => m.workspaceId,
    );
  /** An organization whose admin invited a new address as organization admin, with a workspace. */
  const invitedAdmin = () => inviteByEmail('admin', 'invitee');

  it('a sign-up with an invited address it never confirms holds nothing of the invitation (invite squatting)', async () => {
    const { admin, org, workspace, email } = await invitedAdmin();
    const squatter = uniq('squatter');
    expect((await signUp(squatter, email)).status).toBe(201);
    const held = await userNamed(squatter);
    expect(held.emailVerifiedAt).toBeNull();
    expect(await roleIn(held.id, org.id)).toBeNull();
    expect(await workspacesOf(held.id)).not.toContain(workspace.id);
    // The invitation still waits for the address's owner.
    const pending = await ts.api.as(admin.key).get(`${INVITES}/organization/${org.id}`);
    expect(pending.body.items).toEqual([
      expect.objectContaining({ invite: expect.objectContaining({ email }) }),
    ]);
  });

  it('a sign-up with an invited address becomes a member when it confirms the address', async () => {
    const { org, workspace, email } = await invitedAdmin();
    const username = uniq('owner');
    expect((await signUp(username, email)).status).toBe(201);
    const user = await userNamed(username);
    expect(await roleIn(user.id, org.id)).toBeNull();
    const mail = await ts.smtp.waitFor(email, (m) => m.text.includes('/verify-email-confirm/'));
    const key = linkIn(mail, /verify-email-confirm\/[0-9a-f]+/)
      .split('/')
      .pop();
    expect((await ts.api.post('/api/v1/registration/verify-email/', { key })).body).toEqual({ detail: 'ok' });
    // Accepted by the confirmation itself, before any sign-in.
    expect(await roleIn(user.id, org.id)).toBe('admin');
    expect(await workspacesOf(user.id)).toContain(workspace.id);
  });

  it("the invitee gets in when a squatter never confirms: a password reset to the address ends the squatter's hold", async () => {
    const { org, workspace, email } = await invitedAdmin();
    const squatter = uniq('squatter');
    expect((await signUp(squatter, email)).status).toBe(201);

    // The real invitee cannot register the address again; the form says how to get in.
    const again = await signUp(uniq('real'), email);
    expect(again.status).toBe(400);
    expect(again.body.email).toEqual([
      'A user is already registered with this e-mail address. If it is yours, use Forgot password on the login page to set a password and sign in.',
    ]);
    expect((await ts.api.post('/api/v1/auth/password/reset/', { email })).status).toBe(200);
    const mail = await ts.smtp.waitFor(email, (m) => m.text.includes('/reset-password/key/'));
    const [uid, token] = linkIn(mail, /reset-password\/key\/\S+/)
      .split('/')
      .slice(-2);
    const fresh = 'Brand-new-passphrase-77';
    const reset = await ts.api.post('/api/v1/auth/password/reset/confirm/', {
      uid,
      token,
      new_password1: fresh,
      new_password2: fresh,
    });
    expect(reset.status, reset.text).toBe(200);

    // The reset confirmed the address: the invitee signs in as organization admin; the squatter's password opens nothing.
    const login = await ts.api.post('/api/v1/auth/login/', { email, password: fresh });
    expect(login.status, login.text).toBe(200);
    const me = await ts.api.as(login.body.key).get('/api/v1/users/me/');
    expect(await roleIn(me.body.id, org.id)).toBe('admin');
    expect(await workspacesOf(me.body.id)).toContain(workspace.id);
    const theirs = await ts.api.post('/api/v1/auth/login/', { username: squatter, password: PASSWORD });
    expect(theirs.status).toBe(400);
  });

  it('adding by email an account whose address is not confirmed invites the address instead of making the account a member', async () => {
    const admin = await createUser(ts);
    const org = await createOrganization(ts, admin);
    const email = `${uniq('early')}@corp.example`;
    const squatter = uniq('squatter');
    expect((await signUp(squatter, email)).status).toBe(201);
    const added = await ts.api.as(admin.key).post('/api/v2/users/organizations/add-membership', {
      email_or_username: email,
      organization_id: org.id,
      role: 'admin',
    });
    expect(added.status, added.text).toBe(201);
    const held = await userNamed(squatter);
    expect(await roleIn(held.id, org.id)).toBeNull();
    expect(added.body.membership).toBeNull();
    expect(added.body.invite).toMatchObject({ role: 'admin', invite: { email } });
    await ts.smtp.waitFor(email, (m) => m.subject.includes(org.name));
  });
});

describe('invitation links', () => {
  const signUpWith = (username: string, email: string, invite: string) =>
    ts.api.post('/api/v1/registration/', {
      username,
      email,
      password1: PASSWORD,
      password2: PASSWORD,
      full_name: 'Link Follower',
      invite,
    });
  const orgsOf = async (username: string) => {
    const { db } = ts.server.deps;
    const [user] = await db.select().from(users).where(eq(users.username, username));
    const rows = await db
      .select()
      .from(organizationMemberships)
      .where(eq(organizationMemberships.userId, user!.id));
    return rows.map((r) => r.organizationId);
  };
  async function mailedInvite() {
    const { admin, org, workspace, email, added } = await inviteByEmail('member', 'linked');
    const mail = await ts.smtp.waitFor(email, (m) => m.subject.includes(org.name));
    const token = new URL(linkIn(mail, /http:\/\/cumulus\.test\/signup\?\S+/)).searchParams.get('invite')!;
    return { admin, org, workspace, email, id: added.body.invite.id as number, token };
  }

  it('guessing ?invite=<id> reads and grants nothing; the mailed token reads the invitation and accepts it', async () => {
    const { admin, org, workspace, email, id, token } = await mailedInvite();
    // The invite's id, as old links carried it, and a neighbour's: not found, and no membership.
    for (const guess of [String(id), String(id + 1), '0'.repeat(64)]) {
      expect((await ts.api.get(`${INVITES}/token/${guess}`)).status).toBe(404);
    }
    const guesser = uniq('guesser');
    expect((await signUpWith(guesser, `${guesser}@example.com`, String(id))).status).toBe(201);
    expect(await orgsOf(guesser)).not.toContain(org.id);

    const preview = await ts.api.get(`${INVITES}/token/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      organization: org.name,
      inviter: `Test ${admin.username}`,
      email,
      workspaces: [workspace.name],
      expiration: expect.any(String),
    });
    // Whoever signs up through the link accepts it, with the address they choose.
    const follower = uniq('follower');
    expect((await signUpWith(follower, `${follower}@example.org`, token)).status).toBe(201);
    expect(await orgsOf(follower)).toContain(org.id);
    // Accepted invitations are gone: the link reads nothing any more.
    expect((await ts.api.get(`${INVITES}/token/${token}`)).status).toBe(404);
  });

  it('signing up through the link with the invited address needs no second email: the account can sign in at once', async () => {
    const { org, email, token } = await mailedInvite();
    const invitee = uniq('invitee');
    const signedUp = await signUpWith(invitee, email, token);
    expect(signedUp.status).toBe(201);
    expect(signedUp.body.detail).toBe('E-mail already verified.');
    const login = await ts.api.post('/api/v1/auth/login/', { username: invitee, password: PASSWORD });
    expect(login.status, login.text).toBe(200);
    expect(await orgsOf(invitee)).toContain(org.id);
    // Another address through the same kind of link still verifies it by mail.
    const other = await mailedInvite();
    const elsewhere = uniq('elsewhere');
    expect((await signUpWith(elsewhere, `${elsewhere}@example.org`, other.token)).body.detail).toBe(
      'Verification e-mail sent.',
    );
  });

  it('signing in through the link accepts it; resending replaces the token, and the old link opens nothing', async () => {
    const { admin, org, email, id, token } = await mailedInvite();
    const resent = await ts.api.as(admin.key).post(`${INVITES}/organization-invite-resend/${id}`);
    expect(resent.status).toBe(200);
    expect((await ts.api.get(`${INVITES}/token/${token}`)).status).toBe(404);
    const person = await createUser(ts);
    const stale = await ts.api.post('/api/v1/auth/login/', {
      username: person.username,
      password: PASSWORD,
      invite: token,
    });
    expect(stale.status).toBe(200);
    expect(await orgsOf(person.username)).not.toContain(org.id);

    const again = await ts.smtp.waitFor(
      email,
      (m) => m.subject.includes(org.name) && !m.text.includes(token),
    );
    const fresh = new URL(linkIn(again, /http:\/\/cumulus\.test\/login\?\S+/)).searchParams.get('invite')!;
    expect(fresh).not.toBe(token);
    const login = await ts.api.post('/api/v1/auth/login/', {
      username: person.username,
      password: PASSWORD,
      invite: fresh,
    });
    expect(login.status).toBe(200);
    expect(await orgsOf(person.username)).toContain(org.id);
  });
});

describe('managing invites', () => {
  async function invited() {
    const [admin, wsAdmin, member] = [await createUser(ts), await createUser(ts), await createUser(ts)];
    const org = await createOrganization(ts, admin);
    const [first, second] = [await createWorkspace(ts, org), await createWorkspace(ts, org)];
    await addMember(ts, wsAdmin, org, { workspaces: [{ workspace: first, isAdmin: true }] });
    await addMember(ts, member, org, { workspaces: [{ workspace: first }] });
    const { invite, workspaceInvites } = await createInviteRow(ts, org, {
      workspaces: [{ workspace: first }],
    });
    return { admin, wsAdmin, member, org, first, second, invite, row: workspaceInvites[0]! };
  }

  it('reads invites per organization and per workspace, for members', async () => {
    const { member, org, first, second, invite, row } = await invited();
    const api = ts.api.as(member.key);
    const one = await api.get(`${INVITES}/organization-invite/${invite.id}`);
    expect(one.body).toMatchObject({ id: invite.id, role: 'member', invite: { email: invite.email } });
    expect((await api.get(`${INVITES}/organization/${org.id}`)).body).toMatchObject({
      count: 1,
      items: [one.body],
    });
    const perWorkspace = await api.get(`${INVITES}/workspace/${first.id}`);
    expect(perWorkspace.body).toMatchObject({
      count: 1,
      items: [{ id: row.id, workspace_id: first.id, email: invite.email, organization_invite_id: invite.id }],
    });
    const otherWorkspace = await api.get(`${INVITES}/workspace/${second.id}`);
    expect(otherWorkspace.status).toBe(404);
    expect(otherWorkspace.body.detail).toBe(`Workspace named ${second.id} not found`);
  });

  it('edits the role and the workspaces of an invite with the member-row rules', async () => {
    const { admin, wsAdmin, invite, first, second } = await invited();
    const url = `${INVITES}/organization-invite/${invite.id}`;
    expect((await ts.api.as(wsAdmin.key).patch(url, { role: 'admin' })).status).toBe(403);
    const moved = await ts.api.as(admin.key).patch(url, {
      role: 'admin',
      workspaces: [{ workspace_id: second.id, is_admin: true, core_limit: 2, credit_limit: 3 }],
    });
    expect(moved.body).toMatchObject({
      role: 'admin',
      workspace_invites: [{ workspace_id: second.id, is_admin: true, core_limit: 2, credit_limit: 3 }],
    });
    const refused = await ts.api.as(wsAdmin.key).patch(url, { workspaces: [{ workspace_id: first.id }] });
    expect(refused.status).toBe(200); // adding to their own workspace is theirs to do
    expect(refused.body.workspace_invites).toHaveLength(2);
  });

  it('edits and removes single workspace invites as that workspace admin', async () => {
    const { wsAdmin, member, row } = await invited();
    const url = `${INVITES}/workspace-invite/${row.id}`;
    expect((await ts.api.as(member.key).patch(url, { is_admin: true })).status).toBe(403);
    const edited = await ts.api.as(wsAdmin.key).patch(url, { is_admin: true, credit_limit: 7 });
    expect(edited.body).toMatchObject({ id: row.id, is_admin: true, credit_limit: 7, core_limit: 1000 });
    const negative = await ts.api.as(wsAdmin.key).patch(url, { credit_limit: -1 });
    expect(negative.body).toEqual({ credit_limit: ['Credit limit must be greater than or equal to 0'] });
    expect((await ts.api.as(wsAdmin.key).delete(url)).status).toBe(204);
    expect((await ts.api.as(wsAdmin.key).delete(url)).status).toBe(404);
  });

  it('deletes an invite: organization admins, or a workspace admin of all its workspaces', async () => {
    const { admin, wsAdmin, member, invite, org, second } = await invited();
    expect((await ts.api.as(member.key).delete(`${INVITES}/organization-invite/${invite.id}`)).status).toBe(
      403,
    );
    const spread = await createInviteRow(ts, org, { workspaces: [{ workspace: second }] });
    const refused = await ts.api.as(wsAdmin.key).delete(`${INVITES}/organization-invite/${spread.invite.id}`);
    expect(refused.status).toBe(403);
    expect((await ts.api.as(wsAdmin.key).delete(`${INVITES}/organization-invite/${invite.id}`)).status).toBe(
      204,
    );
    expect(
      (await ts.api.as(admin.key).delete(`${INVITES}/organization-invite/${spread.invite.id}`)).status,
    ).toBe(204);
    const { db } = ts.server.deps;
    expect(
      await db.select().from(organizationInvites).where(eq(organizationInvites.organizationId, org.id)),
    ).toEqual([]);
  });
});
