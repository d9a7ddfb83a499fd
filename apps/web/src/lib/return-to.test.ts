import { describe, expect, it } from 'vitest';

import { loginPathFor, safeReturnTo, takeReturnTo } from '@/lib/return-to';

describe('return-to', () => {
  it('carries the protected path plus query to login', () => {
    expect(loginPathFor({ pathname: '/team', search: '?tab=members' })).toBe(
      '/login?return-to=%2Fteam%3Ftab%3Dmembers',
    );
    expect(loginPathFor({ pathname: '/', search: '?open=true' })).toBe('/login?open=true');
  });

  it('never leaves the console', () => {
    expect(safeReturnTo('/profile?x=1')).toBe('/profile?x=1');
    expect(safeReturnTo('//evil.example')).toBeNull();
    expect(safeReturnTo('https://evil.example')).toBeNull();
    expect(takeReturnTo(new URLSearchParams('return-to=https://evil.example'))).toBe('/');
    expect(takeReturnTo(new URLSearchParams('redirect_uri=%2Factivate-token%3Fid%3D1'))).toBe(
      '/activate-token?id=1',
    );
  });
});
