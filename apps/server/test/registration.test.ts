import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  organizationMemberships,
  organizations,
  users,
  workspaceMemberships,
  workspaces,
} from '../src/db/schema/index.js';
import { createUser, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
const staffEmail = 'boss@cumulus.test';
beforeAll(async () => {
  ts = await startTestServer({ CUMULUS_STAFF_EMAILS: ` ${staffEmail.toUpperCase()} , other@x.io` });
});
afterAll(() => ts.close());

const valid = (overrides: Record<string, unknown> = {}) => {
  const username = uniq('reg');
  return {
    username,
    email: `${username}@example.com`,
    password1: 'Quiet-river-stones-7',
    password2: 'Quiet-river-stones-7',
    full_name: 'Reg Istration',
    preferred_name: '',
    ...overrides,
  };
};

const userCount = async () => (await ts.server.deps.db.select({ n: count() }).from(users))[0]!.n;

describe('registration', () => {
  it('gives a new user a personal organization and workspace named after them, which they administer', async () => {
    const body = valid();
    expect((await ts.api.post('/api/v1/registration/', body)).status).toBe(201);
    const { db } = ts.server.deps;
    const [user] = await db.select().from(users).where(eq(users.username, body.username));
    const [account] = await db.select().from(workspaces).where(eq(workspaces.id, user!.defaultWorkspaceId!));
    expect(account).toMatchObject({ slug: body.username, name: body.username });
    const [org] = await db.select().from(organizations).where(eq(organizations.id, account!.organizationId));
    expect(org).toMatchObject({ name: body.username, isPersonal: true });
    const [membership] = await db
      .select()
      .from(workspaceMemberships)
      .where(eq(workspaceMemberships.userId, user!.id));
    expect(membership).toMatchObject({ isAdmin: true, coreLimit: 1000, creditLimit: 100000 });
    const [orgMembership] = await db
      .select()
      .from(organizationMemberships)
      .where(eq(organizationMemberships.userId, user!.id));
    expect(orgMembership!.role).toBe('admin');
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('answers each rule of the form with its message, on its field, and writes nothing', async () => {
    const before = await userCount();
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ full_name: '' }, { full_name: ['Full name is required'] }],
      [{ full_name: 'x'.repeat(255) }, { full_name: ['Full name is limited to 254 or less characters'] }],
      [
        { preferred_name: 'x'.repeat(151) },
        { preferred_name: ['Preferred name is limited to 150 or less characters'] },
      ],
      [{ username: '' }, { username: ['Username is required'] }],
      [
        { username: 'Has Space' },
        {
          username: [
            'Enter a valid username. Usernames may contain only lowercase letters, numbers, hyphens and underscores.',
          ],
        },
      ],
      [{ username: 'a'.repeat(151) }, { username: ['Ensure this field has no more than 150 characters.'] }],
      [{ email: '' }, { email: ['Work email is required'] }],
      [{ email: 'no-at-sign' }, { email: ['Invalid email'] }],
      [{ email: 'a@b.c' }, { email: ['Invalid email'] }],
      [{ password1: '' }, { password1: ['Password is required'] }],
      [{ password2: '' }, { password2: ['Matching password is required'] }],
      [
        { password1: 'short', password2: 'short' },
        { password1: ['This password is too short. It must contain at least 10 characters.'] },
      ],
      [
        { password1: '93847562019', password2: '93847562019' },
        { password1: ['This password is entirely numeric.'] },
      ],
      [{ password2: 'Something-else-entirely' }, { password2: ["The two password fields didn't match."] }],
    ];
    for (const [overrides, errors] of cases) {
      const res = await ts.api.post('/api/v1/registration/', valid(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body, JSON.stringify(overrides)).toEqual(errors);
    }
    const missing = await ts.api.post('/api/v1/registration/', {});
    expect(missing.body).toMatchObject({
      username: ['Username is required'],
      full_name: ['Full name is required'],
    });
    expect(await userCount()).toBe(before);
  });

  it('accepts an email with an IP-literal domain', async () => {
    const body = valid();
    body.email = `${body.username}@[10.0.0.1]`;
    expect((await ts.api.post('/api/v1/registration/', body)).status).toBe(201);
  });

  it('rejects a taken username or email, whatever its case', async () => {
    const existing = await createUser(ts);
    const dupe = await ts.api.post(
      '/api/v1/registration/',
      valid({ username: existing.username, email: existing.email.toUpperCase() }),
    );
    expect(dupe.status).toBe(400);
    expect(dupe.body).toEqual({
      username: ['A user with that username already exists.'],
      email: [
        'A user is already registered with this e-mail address. If it is yours, use Forgot password on the login page to set a password and sign in.',
      ],
    });
  });

  it('makes users listed in CUMULUS_STAFF_EMAILS staff', async () => {
    const body = valid({ email: staffEmail });
    expect((await ts.api.post('/api/v1/registration/', body)).status).toBe(201);
    const [user] = await ts.server.deps.db.select().from(users).where(eq(users.username, body.username));
    expect(user!.isStaff).toBe(true);
    const other = valid();
    await ts.api.post('/api/v1/registration/', other);
    const [plain] = await ts.server.deps.db.select().from(users).where(eq(users.username, other.username));
    expect(plain!.isStaff).toBe(false);
  });

  it('resends confirmation only to unverified workspaces, answering alike for every address', async () => {
    const body = valid();
    await ts.api.post('/api/v1/registration/', body);
    await ts.smtp.waitFor(body.email);
    const resend = await ts.api.post('/api/v1/resend-confirmation-email/', { email: body.email });
    expect(resend.body).toEqual({ detail: 'Verification e-mail sent.' });
    await ts.smtp.waitFor(body.email, (m) => m !== ts.smtp.mails.find((x) => x.to.includes(body.email)));
    const unknown = await ts.api.post('/api/v1/resend-confirmation-email/', {
      email: `${uniq()}@example.com`,
    });
    expect(unknown.body).toEqual({ detail: 'Verification e-mail sent.' });
    const invalid = await ts.api.post('/api/v1/resend-confirmation-email/', { email: 'nope' });
    expect(invalid.body).toEqual({ email: ['invalid email'] });
    expect((await ts.api.post('/api/v1/resend-confirmation-email/', {})).body).toEqual({
      email: ['email is required'],
    });
  });

  it('treats an expired verification key as not found', async () => {
    const body = valid();
    await ts.api.post('/api/v1/registration/', body);
    const mail = await ts.smtp.waitFor(body.email);
    const key = /verify-email-confirm\/([0-9a-f]+)/.exec(mail.text)![1]!;
    const { db } = ts.server.deps;
    const { emailVerifications } = await import('../src/db/schema/index.js');
    await db.update(emailVerifications).set({ created: new Date(Date.now() - 4 * 86_400_000) });
    const res = await ts.api.post('/api/v1/registration/verify-email/', { key });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Not found.');
  });
});
