import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../src/db/schema/index.js';
import { createUser, uniq } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { linkIn } from './helpers/smtp.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.close());

const resetLink = async (email: string) => {
  const before = ts.smtp.mails.length;
  const res = await ts.api.post('/api/v1/auth/password/reset/', { email });
  expect(res.body).toEqual({ detail: 'Password reset e-mail has been sent.' });
  const mail = await ts.smtp.waitFor(
    email,
    (m) => m.subject.includes('Reset') && ts.smtp.mails.indexOf(m) >= before,
  );
  const link = linkIn(mail, /http:\/\/cumulus\.test\/reset-password\/key\/([\w-]+)\/([0-9a-f]+)/);
  const [, , , , , uid, token] = link.split('/');
  return { uid: uid!, token: token! };
};

describe('password reset', () => {
  it('mails a single-use link that sets a new password and ends every session', async () => {
    const user = await createUser(ts);
    const { uid, token } = await resetLink(user.email);
    const newPassword = 'Brand-new-secret-77';

    const mismatch = await ts.api.post('/api/v1/auth/password/reset/confirm/', {
      uid,
      token,
      new_password1: newPassword,
      new_password2: 'Other-secret-7777',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ new_password2: ["The two password fields didn't match."] });

    const weak = await ts.api.post('/api/v1/auth/password/reset/confirm/', {
      uid,
      token,
      new_password1: 'short',
      new_password2: 'short',
    });
    expect(weak.body).toEqual({
      new_password1: ['This password is too short. It must contain at least 10 characters.'],
    });

    const ok = await ts.api.post('/api/v1/auth/password/reset/confirm/', {
      uid,
      token,
      new_password1: newPassword,
      new_password2: newPassword,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ detail: 'Password has been reset with the new password.' });
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);

    const again = await ts.api.post('/api/v1/auth/password/reset/confirm/', {
      uid,
      token,
      new_password1: 'Yet-another-one-88',
      new_password2: 'Yet-another-one-88',
    });
    expect(again.body).toEqual({ token: ['Invalid value'] });

    expect(
      (await ts.api.post('/api/v1/auth/login/', { username: user.username, password: user.password })).status,
    ).toBe(400);
    expect(
      (await ts.api.post('/api/v1/auth/login/', { username: user.username, password: newPassword })).status,
    ).toBe(200);
  });

  it('rejects a bad uid, a bad token and an expired token', async () => {
    const user = await createUser(ts);
    const { uid, token } = await resetLink(user.email);
    const body = { new_password1: 'Brand-new-secret-77', new_password2: 'Brand-new-secret-77' };
    expect(
      (await ts.api.post('/api/v1/auth/password/reset/confirm/', { ...body, uid: 'zz', token })).body,
    ).toEqual({
      uid: ['Invalid value'],
    });
    expect(
      (await ts.api.post('/api/v1/auth/password/reset/confirm/', { ...body, uid, token: 'abc' })).body,
    ).toEqual({
      token: ['Invalid value'],
    });
    await ts.server.deps.db
      .update(passwordResets)
      .set({ created: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(passwordResets.userId, user.id));
    expect((await ts.api.post('/api/v1/auth/password/reset/confirm/', { ...body, uid, token })).body).toEqual(
      {
        token: ['Invalid value'],
      },
    );
  });

  it('answers alike for unknown addresses and sends nothing', async () => {
    const email = `${uniq()}@example.com`;
    const res = await ts.api.post('/api/v1/auth/password/reset/', { email });
    expect(res.body).toEqual({ detail: 'Password reset e-mail has been sent.' });
    await new Promise((r) => setTimeout(r, 300));
    expect(ts.smtp.mails.some((m) => m.to.includes(email))).toBe(false);
  });
});

describe('password change', () => {
  it('saves the new password and signs the user out everywhere', async () => {
    const user = await createUser(ts);
    const other = await ts.api.post('/api/v1/auth/login/', {
      username: user.username,
      password: user.password,
    });
    const res = await ts.api.as(user.key).post('/api/v1/auth/password/change/', {
      new_password1: 'Changed-password-55',
      new_password2: 'Changed-password-55',
    });
    expect(res.body).toEqual({ detail: 'New password has been saved.' });
    expect((await ts.api.as(user.key).get('/api/v2/user/me')).status).toBe(401);
    expect((await ts.api.as(other.body.key).get('/api/v2/user/me')).status).toBe(401);
    expect(
      (await ts.api.post('/api/v1/auth/login/', { username: user.username, password: 'Changed-password-55' }))
        .status,
    ).toBe(200);
  });

  it('puts rule failures on their fields and needs a signed-in user', async () => {
    const user = await createUser(ts);
    const res = await ts.api
      .as(user.key)
      .post('/api/v1/auth/password/change/', { new_password1: '', new_password2: '' });
    expect(res.body).toEqual({
      new_password1: ['New password is required'],
      new_password2: ['Matching password is required'],
    });
    const similar = await ts.api.as(user.key).post('/api/v1/auth/password/change/', {
      new_password1: `${user.username}-pw`,
      new_password2: `${user.username}-pw`,
    });
    expect(similar.body.new_password1).toContain('The password is too similar to the username.');
    expect(
      (await ts.api.post('/api/v1/auth/password/change/', { new_password1: 'a', new_password2: 'a' })).status,
    ).toBe(401);
  });
});

describe('username retrieval', () => {
  it('mails the username to the address', async () => {
    const user = await createUser(ts);
    const res = await ts.api.post('/api/v1/users/retrieve-username/', { email: user.email });
    expect(res.status).toBe(200);
    const mail = await ts.smtp.waitFor(user.email, (m) => m.subject.includes('username'));
    expect(mail.text).toContain(user.username);
    expect((await ts.api.post('/api/v1/users/retrieve-username/', { email: 'bad' })).body).toEqual({
      email: ['invalid email'],
    });
  });
});
