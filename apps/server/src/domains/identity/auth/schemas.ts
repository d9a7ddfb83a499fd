import { text, z } from '../../../http/zod.js';
import {
  FULL_NAME_MAX,
  isEmail,
  isUsername,
  PREFERRED_NAME_MAX,
  USERNAME_MAX,
  USERNAME_RULE_MESSAGE,
} from './rules.js';

const password = (required: string) =>
  z.string({ error: required }).min(1, { error: required, abort: true }).max(4096);
const email = (required: string, invalid: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .max(254, { error: invalid, abort: true })
    .refine(isEmail, invalid);

export const registrationBody = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, { error: 'Username is required', abort: true })
    .max(USERNAME_MAX, {
      error: `Ensure this field has no more than ${USERNAME_MAX} characters.`,
      abort: true,
    })
    .refine(isUsername, USERNAME_RULE_MESSAGE),
  email: email('Work email is required', 'Invalid email'),
  password1: password('Password is required'),
  password2: password('Matching password is required'),
  full_name: z
    .string({ error: 'Full name is required' })
    .trim()
    .min(1, { error: 'Full name is required', abort: true })
    .max(FULL_NAME_MAX, `Full name is limited to ${FULL_NAME_MAX} or less characters`),
  preferred_name: z
    .string()
    .trim()
    .max(PREFERRED_NAME_MAX, `Preferred name is limited to ${PREFERRED_NAME_MAX} or less characters`)
    .nullish()
    .transform((v) => v ?? ''),
  // Accepted for compatibility; this server has no captcha provider.
  captcha_token: z.string().max(4096).nullish(),
  /** The token of the invitation link (`?invite=`) the person came through: it is accepted too. */
  invite: text(128).nullish(),
});

export const loginBody = z.object({
  username: text(254).optional(),
  email: text(254).optional(),
  password: z.string().max(4096),
  /** The token of the invitation link (`?invite=`) the person came through: it is accepted too. */
  invite: text(128).nullish(),
});

export const keyBody = z.object({ key: z.string().trim().min(1).max(200) });
export const emailBody = z.object({ email: email('email is required', 'invalid email') });

export const passwordResetConfirmBody = z.object({
  uid: z.string().trim().min(1).max(100),
  token: z.string().trim().min(1).max(200),
  new_password1: password('password is required'),
  new_password2: password('matching password is required'),
});

export const passwordChangeBody = z.object({
  new_password1: password('New password is required'),
  new_password2: password('Matching password is required'),
});

export const keyResponse = z.object({ key: z.string() });
