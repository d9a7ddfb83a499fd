import { useSearchParams } from 'react-router';

import type { OrganizationMembership } from '@/data/user/organization-memberships-query';
import { useCurrentBillingScope } from '@/features/billing/current-billing-scope';
import { useSignedIn } from '@/lib/signed-in';
import { ACCOUNT_PARAM, useWorkspace, type Workspace } from '@/lib/workspace';

/** Stripe sends the browser back with `checkout=success` or `checkout=cancelled` (subscriptions/service.ts). */
export const CHECKOUT_PARAM = 'checkout';
export type CheckoutReturn = 'success' | 'cancelled';

export type BillingAccount =
  | { organizationId: number; notFound?: undefined }
  | { organizationId: null; notFound: string | null };

/** Section 8: a workspace lookup that finds nothing. */
export const accountNotFound = (account: string) => `Account named ${account} not found`;

/**
 * The organization the Billing page shows (`account` is an organization id
 * or a workspace): an organization of the user's by id, a workspace of theirs by slug (or id), its
 * organization; staff may name any organization by id. No parameter: `fallback`.
 */
export function resolveBillingAccount(
  account: string | null,
  {
    organizationMemberships,
    workspaces,
    isStaff,
    fallback,
  }: {
    organizationMemberships: readonly Pick<OrganizationMembership, 'organizationId'>[];
    workspaces: readonly Pick<Workspace, 'id' | 'slug' | 'organization'>[];
    isStaff: boolean;
    fallback: number | null;
  },
): BillingAccount {
  const key = account?.trim();
  if (!key)
    return fallback === null ? { organizationId: null, notFound: null } : { organizationId: fallback };
  if (/^\d+$/.test(key)) {
    const id = Number(key);
    if (organizationMemberships.some((membership) => membership.organizationId === id))
      return { organizationId: id };
    const workspace = workspaces.find((candidate) => candidate.id === id);
    if (workspace) return { organizationId: workspace.organization.id };
    if (isStaff) return { organizationId: id };
    return { organizationId: null, notFound: accountNotFound(key) };
  }
  const workspace = workspaces.find((candidate) => candidate.slug === key);
  return workspace
    ? { organizationId: workspace.organization.id }
    : { organizationId: null, notFound: accountNotFound(key) };
}

/** The Billing page's URL state: the organization it shows and Stripe's checkout return. */
export function useBillingSearch() {
  const [params, setParams] = useSearchParams();
  const { user, organizationMemberships } = useSignedIn();
  const { workspaces } = useWorkspace();
  const { organizationId: fallback } = useCurrentBillingScope();
  const account = resolveBillingAccount(params.get(ACCOUNT_PARAM), {
    organizationMemberships,
    workspaces,
    isStaff: user.isStaff,
    fallback: fallback ?? user.defaultOrganization?.id ?? organizationMemberships[0]?.organizationId ?? null,
  });
  const checkout = params.get(CHECKOUT_PARAM);
  const change = (next: { organizationId?: number; checkout?: null }) =>
    setParams(
      (current) => {
        if (next.organizationId !== undefined) current.set(ACCOUNT_PARAM, String(next.organizationId));
        if (next.checkout === null || next.organizationId !== undefined) current.delete(CHECKOUT_PARAM);
        return current;
      },
      { replace: true },
    );
  return {
    account,
    checkout: checkout === 'success' || checkout === 'cancelled' ? (checkout as CheckoutReturn) : null,
    change,
  };
}
