import { describe, expect, it } from 'vitest';

import { tokenExpiry } from '@/data/api-tokens/api-token-create-mutation';
import { type ApiToken, activeTokens } from '@/data/api-tokens/api-tokens-query';

describe('API tokens', () => {
  it('expire after whole days, never by default', () => {
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
