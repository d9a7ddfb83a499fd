// The account rules; the server checks the same ones.

export const USERNAME_MAX = 150;
export const FULL_NAME_MAX = 254;
export const PREFERRED_NAME_MAX = 150;
export const PASSWORD_MIN = 10;

/** Local part, @, a domain with a dot and an alphabetic suffix of 2 or more, or an IP literal. */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}|\[(?:\d{1,3}\.){3}\d{1,3}\])$/;
/** Lowercase letters, digits, hyphen and underscore. */
export const USERNAME_PATTERN = /^[a-z0-9_-]+$/;
/** Letters, numbers, underscores, hyphens (the Profile username). */
export const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;
/** Digits, spaces, hyphens, optional leading plus. */
export const PHONE_PATTERN = /^\+?[\d\s-]*$/;

export const USERNAME_RULE_MESSAGE =
  'Enter a valid username. Usernames may contain only lowercase letters, numbers, hyphens and underscores.';
export const USERNAME_MAX_MESSAGE = `Ensure this field has no more than ${USERNAME_MAX} characters.`;
export const PASSWORD_REQUIREMENTS = `Password must be at least ${PASSWORD_MIN} characters long.`;
export const SLUG_MESSAGE = 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.';
