import { describe, expect, it } from 'vitest';

import { passwordChangeSchema, profileSchema, tokenSchema, usernameSchema } from '@/features/profile/schemas';
import { usernameError } from '@/features/profile/sections/username-section';
import { ApiError } from '@/lib/api/errors';

const firstMessage = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

const profile = {
  fullName: '',
  preferredName: '',
  title: '',
  company: '',
  workEmail: '',
  phoneNumber: '',
  canContact: false,
};

describe('Profile rules (section 5)', () => {
  it('requires the email only with a usable password', () => {
    expect(firstMessage(profileSchema(true).safeParse(profile))).toBe('Email is required');
    expect(profileSchema(false).safeParse(profile).success).toBe(true);
    expect(firstMessage(profileSchema(false).safeParse({ ...profile, workEmail: 'nope' }))).toBe(
      'Please enter a valid email address',
    );
  });

  it('allows digits, spaces, hyphens and a leading plus in the phone number', () => {
    expect(profileSchema(false).safeParse({ ...profile, phoneNumber: '+1 555-0100' }).success).toBe(true);
    expect(firstMessage(profileSchema(false).safeParse({ ...profile, phoneNumber: '555 (0100)' }))).toBe(
      'Can contain numbers and hyphens',
    );
  });

  it('checks the password change and the username slug', () => {
    expect(firstMessage(passwordChangeSchema.safeParse({ newPassword1: '', newPassword2: 'x' }))).toBe(
      'New password is required',
    );
    expect(firstMessage(passwordChangeSchema.safeParse({ newPassword1: 'x', newPassword2: '' }))).toBe(
      'Matching password is required',
    );
    expect(firstMessage(passwordChangeSchema.safeParse({ newPassword1: 'x', newPassword2: 'y' }))).toBe(
      'Passwords must match',
    );
    expect(firstMessage(usernameSchema.safeParse({ username: 'not a slug' }))).toBe(
      'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.',
    );
  });

  it('maps the username answers', () => {
    expect(usernameError(ApiError.fromResponse(409, { detail: 'That username already exists.' }))).toBe(
      'That username already exists.',
    );
    expect(usernameError(ApiError.fromResponse(500, {}))).toBe('An unknown error occurred.');
  });
});

describe('API token form', () => {
  it('takes a label and optional whole days', () => {
    expect(tokenSchema.safeParse({ label: '', days: '' }).success).toBe(true);
    expect(firstMessage(tokenSchema.safeParse({ label: '', days: '1.5' }))).toBe(
      'Days to expiration must be a number',
    );
  });
});
