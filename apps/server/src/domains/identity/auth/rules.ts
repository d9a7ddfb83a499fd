import type { FieldErrorCollector } from '../../../http/errors.js';

// The account rules (usernames, emails, passwords), shared by registration, profile and password forms.

export const USERNAME_MAX = 150;
export const FULL_NAME_MAX = 254;
export const PREFERRED_NAME_MAX = 150;
export const PASSWORD_MIN = 10;

const USERNAME_RE = /^[a-z0-9_-]+$/;
const SLUG_RE = /^[-a-zA-Z0-9_]+$/;
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}|\[(?:\d{1,3}\.){3}\d{1,3}\])$/;

export const USERNAME_RULE_MESSAGE =
  'Enter a valid username. Usernames may contain only lowercase letters, numbers, hyphens and underscores.';
export const SLUG_MESSAGE = 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.';

export const isEmail = (value: string): boolean => value.length <= 254 && EMAIL_RE.test(value);

/**
 * An address as Cumulus keeps it (lower case) and its domain, or null when it is not one valid
 * address: exactly one @, a name before it and a domain after it. Addresses from identity providers
 * go through it before their domain is compared or an account is looked up by them.
 */
export function parseEmail(raw: string): { email: string; domain: string } | null {
  const email = raw.toLowerCase();
  if (!isEmail(email)) return null;
  return { email, domain: email.slice(email.indexOf('@') + 1) };
}
export const isUsername = (value: string): boolean => value.length <= USERNAME_MAX && USERNAME_RE.test(value);
export const isSlug = (value: string): boolean => SLUG_RE.test(value);

const COMMON_PASSWORDS = new Set([
  '1234567890',
  '0123456789',
  '12345678910',
  'password12',
  'password123',
  'password1234',
  'qwertyuiop',
  'iloveyou12',
  'letmein123',
  'welcome123',
  'abcdefghij',
  'passw0rd12',
  '1q2w3e4r5t',
  'qwerty1234',
  'administrator',
]);

/** Django's password validators, in the words users of such sites know. */
export function checkPassword(
  errors: FieldErrorCollector,
  field: string,
  password: string,
  user: { username?: string; email?: string },
): void {
  if (password.length < PASSWORD_MIN) {
    errors.add(field, `This password is too short. It must contain at least ${PASSWORD_MIN} characters.`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) errors.add(field, 'This password is too common.');
  if (/^\d+$/.test(password)) errors.add(field, 'This password is entirely numeric.');
  const lowered = password.toLowerCase();
  for (const [attribute, value] of [
    ['username', user.username],
    ['email address', user.email?.split('@')[0]],
  ] as const) {
    if (
      value &&
      value.length >= 3 &&
      (lowered.includes(value.toLowerCase()) || value.toLowerCase().includes(lowered))
    ) {
      errors.add(field, `The password is too similar to the ${attribute}.`);
      break;
    }
  }
}
