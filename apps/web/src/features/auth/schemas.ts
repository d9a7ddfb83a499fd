import { z } from 'zod';

import {
  EMAIL_PATTERN,
  FULL_NAME_MAX,
  PASSWORD_MIN,
  PASSWORD_REQUIREMENTS,
  PREFERRED_NAME_MAX,
  USERNAME_MAX,
  USERNAME_MAX_MESSAGE,
  USERNAME_PATTERN,
  USERNAME_RULE_MESSAGE,
} from '@/lib/rules';

// The form rules and messages, word for word.

// A form shows the first message of a field, so an empty one says only that it is required.
const required = (message: string) => z.string().trim().min(1, message);
const email = (requiredMessage: string, invalidMessage: string) =>
  required(requiredMessage).pipe(z.string().regex(EMAIL_PATTERN, invalidMessage));
const password = (requiredMessage: string) =>
  z.string().min(1, requiredMessage).min(PASSWORD_MIN, PASSWORD_REQUIREMENTS);

export const loginSchema = z.object({
  usernameOrEmail: required('Username is required'),
  password: z.string().min(1, 'Password is required'),
});
export type LoginValues = z.infer<typeof loginSchema>;

export const signupSchema = z
  .object({
    fullName: required('Full name is required').max(
      FULL_NAME_MAX,
      `Full name is limited to ${FULL_NAME_MAX} or less characters`,
    ),
    preferredName: z
      .string()
      .trim()
      .max(PREFERRED_NAME_MAX, `Preferred name is limited to ${PREFERRED_NAME_MAX} or less characters`),
    username: required('Username is required')
      .max(USERNAME_MAX, USERNAME_MAX_MESSAGE)
      .regex(USERNAME_PATTERN, USERNAME_RULE_MESSAGE),
    email: email('Work email is required', 'Invalid email'),
    password1: password('Password is required'),
    password2: z.string().min(1, 'Matching password is required'),
  })
  .refine((values) => values.password1 === values.password2, {
    path: ['password2'],
    message: 'Passwords must match',
  });
export type SignupValues = z.infer<typeof signupSchema>;

/** Verify-email resend, retrieve username and forgot password: one email field. */
export const recoveryEmailSchema = z.object({ email: email('email is required', 'invalid email') });
export type RecoveryEmailValues = z.infer<typeof recoveryEmailSchema>;

export const resetConfirmSchema = z
  .object({
    newPassword1: z.string().min(1, 'password is required'),
    newPassword2: z.string().min(1, 'matching password is required'),
  })
  .refine((values) => values.newPassword1 === values.newPassword2, {
    path: ['newPassword2'],
    message: 'passwords must match',
  });
export type ResetConfirmValues = z.infer<typeof resetConfirmSchema>;
