import { linkIn, type SmtpSink } from '../../../server/test/helpers/smtp';

export const PASSWORD = 'Sturdy-passphrase-42';

let counter = 0;
export const uniqueName = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`.toLowerCase();

async function json(response: Response): Promise<any> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The account-verification link mailed to `email`. */
export async function verificationLink(smtp: SmtpSink, email: string): Promise<string> {
  const mail = await smtp.waitFor(email, (m) => m.text.includes('/verify-email-confirm/'), 30_000);
  return linkIn(mail, /http:\/\/\S+\/verify-email-confirm\/[a-f0-9]+/);
}

/** Signs up over HTTP (the verification email is then on its way, or in the server log). */
export async function register(base: string, username: string, email: string) {
  await json(
    await fetch(`${base}/api/v1/registration/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        email,
        password1: PASSWORD,
        password2: PASSWORD,
        full_name: `Test ${username}`,
      }),
    }),
  );
}

/** Confirms an email address with the key of its verification link. */
export async function confirmEmail(base: string, key: string) {
  await json(
    await fetch(`${base}/api/v1/registration/verify-email/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key }),
    }),
  );
}

/**
 * Registers over HTTP and follows the mailed verification link: a user who can sign in. `email`
 * gives one the server knows beforehand (CUMULUS_STAFF_EMAILS makes such a user staff).
 */
export async function createVerifiedUser(
  base: string,
  smtp: SmtpSink,
  prefix = 'e2e',
  { email: given }: { email?: string } = {},
) {
  const username = uniqueName(prefix);
  const email = given ?? `${username}@example.com`;
  await register(base, username, email);
  await confirmEmail(base, (await verificationLink(smtp, email)).split('/').pop() ?? '');
  return { username, email, password: PASSWORD };
}

export { json, linkIn };

/** Signs in over HTTP: `call` then speaks to the API as that user (setup a journey does not test). */
export async function apiAs(base: string, user: { username: string; password: string }) {
  const { key } = await json(
    await fetch(`${base}/api/v1/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password }),
    }),
  );
  return {
    key: key as string,
    call: async (method: string, path: string, body?: unknown): Promise<any> =>
      json(
        await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Token ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
  };
}
