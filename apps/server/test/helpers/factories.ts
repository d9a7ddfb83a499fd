import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { findUserBy, login, register } from '../../src/modules/auth/service.js';
import type { TestServer } from './server.js';

let counter = 0;
/** A name no other test (or parallel test file on a shared database) uses. */
export const uniq = (prefix = 'u') =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(3).toString('hex')}`;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  /** A session key, as login returns. */
  key: string;
}

export const PASSWORD = 'Sturdy-passphrase-42';

/** Registers through the real service, marks the email verified and signs in. */
export async function createUser(
  ts: TestServer,
  options: { staff?: boolean; verified?: boolean; username?: string } = {},
): Promise<TestUser> {
  const { deps } = ts.server;
  const username = options.username ?? uniq();
  const email = `${username}@example.com`;
  await register(deps, {
    username,
    email,
    password1: PASSWORD,
    password2: PASSWORD,
    full_name: `Test ${username}`,
    preferred_name: '',
  });
  const user = (await findUserBy(deps.db, 'username', username))!;
  await deps.db
    .update(users)
    .set({
      isStaff: options.staff ?? false,
      emailVerifiedAt: options.verified === false ? null : new Date(),
    })
    .where(eq(users.id, user.id));
  const key =
    options.verified === false
      ? ''
      : await login(deps.db, { username, password: PASSWORD, ip: '10.255.0.1' });
  return { id: user.id, username, email, password: PASSWORD, key };
}
