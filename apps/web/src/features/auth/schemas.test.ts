import { describe, expect, it } from 'vitest';

import { recoveryEmailSchema, signupSchema } from '@/features/auth/schemas';

/** The first message per field, as the form shows it. */
const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) =>
  Object.fromEntries(
    (result.error?.issues ?? []).toReversed().map((issue) => [issue.path.join('.'), issue.message]),
  );

const valid = {
  fullName: 'Ada Lovelace',
  preferredName: '',
  username: 'ada',
  email: 'ada@example.com',
  password1: 'Analytical-Engine-1843',
  password2: 'Analytical-Engine-1843',
};

describe('sign-up rules (section 5)', () => {
  it('accepts a complete form', () => {
    expect(signupSchema.safeParse(valid).success).toBe(true);
  });

  it('says what is required, and still compares the passwords', () => {
    expect(
      messages(
        signupSchema.safeParse({
          fullName: '',
          preferredName: '',
          username: '',
          email: '',
          password1: '',
          password2: '',
        }),
      ),
    ).toEqual({
      fullName: 'Full name is required',
      username: 'Username is required',
      email: 'Work email is required',
      password1: 'Password is required',
      password2: 'Matching password is required',
    });
  });

  it('compares the passwords even while other fields are empty', () => {
    const result = signupSchema.safeParse({
      ...valid,
      fullName: '',
      username: '',
      password2: 'Something-else-123',
    });
    expect(messages(result).password2).toBe('Passwords must match');
  });

  it('bounds the names and checks the username, email and password rules', () => {
    expect(
      messages(
        signupSchema.safeParse({
          fullName: 'x'.repeat(255),
          preferredName: 'y'.repeat(151),
          username: 'Ada Lovelace',
          email: 'ada@localhost',
          password1: 'short',
          password2: 'other',
        }),
      ),
    ).toEqual({
      fullName: 'Full name is limited to 254 or less characters',
      preferredName: 'Preferred name is limited to 150 or less characters',
      username:
        'Enter a valid username. Usernames may contain only lowercase letters, numbers, hyphens and underscores.',
      email: 'Invalid email',
      password1: 'Password must be at least 10 characters long.',
      password2: 'Passwords must match',
    });
    expect(messages(signupSchema.safeParse({ ...valid, username: 'a'.repeat(151) })).username).toBe(
      'Ensure this field has no more than 150 characters.',
    );
  });

  it('accepts an IP-literal address, as the email rule says', () => {
    expect(signupSchema.safeParse({ ...valid, email: 'ada@[10.0.0.1]' }).success).toBe(true);
  });
});

describe('recovery email rules', () => {
  it('uses the lower-case messages of the recovery forms', () => {
    expect(messages(recoveryEmailSchema.safeParse({ email: '' }))).toEqual({ email: 'email is required' });
    expect(messages(recoveryEmailSchema.safeParse({ email: 'nope' }))).toEqual({ email: 'invalid email' });
  });
});
