import { describe, expect, it } from 'vitest';

import { resolveBillingAccount } from '@/features/billing/billing-account';

const organization = (id: number) => ({ id, name: `Org ${id}`, isPersonal: false });
const context = {
  organizationMemberships: [{ organizationId: 3 }, { organizationId: 4 }],
  workspaces: [
    { id: 7, slug: 'acme', organization: organization(3) },
    { id: 9, slug: 'labs', organization: organization(4) },
  ],
  isStaff: false,
  fallback: 3,
};

describe('the Billing page account parameter', () => {
  it('takes an organization id, else a workspace id or slug, and falls back to the current scope', () => {
    expect(resolveBillingAccount('4', context)).toEqual({ organizationId: 4 });
    expect(resolveBillingAccount('9', context)).toEqual({ organizationId: 4 });
    expect(resolveBillingAccount('labs', context)).toEqual({ organizationId: 4 });
    expect(resolveBillingAccount(null, context)).toEqual({ organizationId: 3 });
    expect(resolveBillingAccount(' ', context)).toEqual({ organizationId: 3 });
    expect(resolveBillingAccount(null, { ...context, fallback: null })).toEqual({
      organizationId: null,
      notFound: null,
    });
  });

  it('says an account is not found, except an organization id to staff', () => {
    expect(resolveBillingAccount('nope', context)).toEqual({
      organizationId: null,
      notFound: 'Account named nope not found',
    });
    expect(resolveBillingAccount('55', context).notFound).toBe('Account named 55 not found');
    expect(resolveBillingAccount('55', { ...context, isStaff: true })).toEqual({ organizationId: 55 });
  });
});
