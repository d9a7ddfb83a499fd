import { describe, expect, it } from 'vitest';

import type { Scope } from '@/data/scopes/valid-scopes-query';
import { effectiveScope, organizationIdOf, organizationScope, scopeQuery } from '@/lib/scopes/scope';

const scope = (type: Scope['type'], id: Scope['id'], extra: Partial<Scope> = {}): Scope => ({
  type,
  id,
  name: `${type} ${id}`,
  slug: null,
  email: null,
  workspaceNames: [],
  organizationId: null,
  ...extra,
});

const everything = scope('compound', 'everything');
const org = scope('organization', 7, { organizationId: 7 });
const workspace = scope('account', 12, { slug: 'acme-data', organizationId: 7 });
const me = scope('user', 3, { email: 'ada@example.com' });
const valid = [everything, org, workspace, me];

describe('scopeQuery', () => {
  it('turns each kind of scope into the filter list endpoints take', () => {
    expect(scopeQuery(everything)).toEqual({ compound_scope: 'everything' });
    expect(scopeQuery(org)).toEqual({ organization: 7 });
    expect(scopeQuery(workspace)).toEqual({ account: 'acme-data' });
    expect(scopeQuery(me)).toEqual({ user: 3 });
    expect(scopeQuery(scope('custom_staff', 'group-4'))).toEqual({ custom_staff_scope: 'group-4' });
    expect(scopeQuery(null)).toEqual({});
  });

  it('knows the organization a scope is in', () => {
    expect(organizationIdOf(org)).toBe(7);
    expect(organizationIdOf(workspace)).toBe(7);
    expect(organizationIdOf(everything)).toBeNull();
    expect(organizationIdOf(me)).toBeNull();
  });
});

describe('effectiveScope (section 5: the non-staff fallback)', () => {
  it('keeps a picked scope that is still valid, with its fresh fields', () => {
    const stale = { ...org, name: 'old name' };
    expect(effectiveScope(stale, valid, { isStaff: false })).toBe(org);
  });

  it('falls back to the first compound scope for non-staff when the picked one is unavailable', () => {
    const gone = organizationScope({ id: 99, name: 'Gone' });
    expect(effectiveScope(gone, valid, { isStaff: false })).toBe(everything);
  });

  it('lets staff keep a scope outside their own list (an organization found by search)', () => {
    const other = organizationScope({ id: 99, name: 'Someone else' });
    expect(effectiveScope(other, valid, { isStaff: true })).toBe(other);
  });

  it('starts on the current workspace, else on the first compound scope', () => {
    expect(effectiveScope(null, valid, { isStaff: false, workspaceId: 12 })).toBe(workspace);
    expect(effectiveScope(null, valid, { isStaff: false, workspaceId: 55 })).toBe(everything);
    expect(effectiveScope(null, undefined, { isStaff: false })).toBeNull();
  });
});
