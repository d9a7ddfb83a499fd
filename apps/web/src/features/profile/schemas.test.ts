import { describe, expect, it } from 'vitest';

import { type ApiToken, activeTokens, tokenExpiry } from '@/features/profile/api';
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

describe('API tokens', () => {
  it('takes a label and optional whole days, never by default', () => {
    expect(tokenSchema.safeParse({ label: '', days: '' }).success).toBe(true);
    expect(firstMessage(tokenSchema.safeParse({ label: '', days: '1.5' }))).toBe(
      'Days to expiration must be a number',
    );
    expect(tokenExpiry(undefined)).toBeNull();
    expect(tokenExpiry(30, new Date('2030-01-01T00:00:00Z'))).toBe('2030-01-31T00:00:00.000Z');
  });

  it('lists only active tokens, newest first', () => {
    const token = (identifier: string, created: string, state: Partial<ApiToken> = {}): ApiToken => ({
      identifier,
      label: identifier,
      created,
      expiry: null,
      expired: false,
      revoked: false,
      lastUsed: null,
      ...state,
    });
    const listed = activeTokens([
      token('old', '2030-01-01T00:00:00+00:00'),
      token('revoked', '2030-01-03T00:00:00+00:00', { revoked: true }),
      token('new', '2030-01-02T00:00:00+00:00'),
      token('expired', '2030-01-04T00:00:00+00:00', { expired: true }),
    ]);
    expect(listed.map((t) => t.identifier)).toEqual(['new', 'old']);
  });
});
