import { describe, expect, it } from 'vitest';

import { requireParam, TEAM_MESSAGES } from '@/lib/team/messages';

describe('Team route parameters', () => {
  it('refuses to work without its route parameters', () => {
    expect(() => requireParam(undefined, TEAM_MESSAGES.organizationIdRequired)).toThrow(
      'Organization ID is required',
    );
    expect(() => requireParam('', TEAM_MESSAGES.memberIdRequired)).toThrow('Member ID is required');
    expect(() => requireParam('x', TEAM_MESSAGES.inviteIdRequired)).toThrow('Invite ID is required');
    expect(requireParam('12', TEAM_MESSAGES.inviteIdRequired)).toBe(12);
  });
});
