import { z } from 'zod';

import {
  EMAIL_PATTERN,
  PHONE_PATTERN,
  SLUG_MESSAGE,
  SLUG_PATTERN,
  USERNAME_MAX,
  USERNAME_MAX_MESSAGE,
} from '@/lib/rules';

// The Profile forms' rules and messages.

export const usernameSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(USERNAME_MAX, USERNAME_MAX_MESSAGE)
    .regex(SLUG_PATTERN, SLUG_MESSAGE),
});

export const passwordChangeSchema = z
  .object({
    newPassword1: z.string().min(1, 'New password is required'),
    newPassword2: z.string().min(1, 'Matching password is required'),
  })
  .refine((values) => values.newPassword1 === values.newPassword2, {
    path: ['newPassword2'],
    message: 'Passwords must match',
  });

const optionalText = (max: number) =>
  z.string().trim().max(max, `Ensure this field has no more than ${max} characters.`);

/** All fields optional; the email is required only for a user with a usable password. */
export function profileSchema(hasUsablePassword: boolean) {
  const email = z
    .string()
    .trim()
    .refine((value) => value === '' || EMAIL_PATTERN.test(value), 'Please enter a valid email address');
  return z.object({
    fullName: optionalText(254),
    preferredName: optionalText(150),
    title: optionalText(150),
    company: optionalText(150),
    workEmail: hasUsablePassword ? email.refine((value) => value !== '', 'Email is required') : email,
    phoneNumber: optionalText(32).regex(PHONE_PATTERN, 'Can contain numbers and hyphens'),
    canContact: z.boolean(),
  });
}
export type ProfileValues = z.infer<ReturnType<typeof profileSchema>>;

export const TOKEN_DAYS_MAX = 3650;

/** Label optional; days to expiration numeric and optional (default never). */
export const tokenSchema = z.object({
  label: optionalText(255),
  days: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\d+$/.test(value), 'Days to expiration must be a number')
    .refine((value) => value === '' || (Number(value) >= 1 && Number(value) <= TOKEN_DAYS_MAX), {
      message: `Days to expiration must be between 1 and ${TOKEN_DAYS_MAX}`,
    }),
});
export type TokenValues = z.infer<typeof tokenSchema>;
