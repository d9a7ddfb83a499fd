import { camelize } from '@/lib/api/camelize';
import type { SignedIn } from '@/lib/signed-in';

// Wire-shaped answers of the pricing and subscription calls, and the signed-in user's memberships,
// for component tests (the stub stands in for the server).

export const ORG_ID = 3;
export const WORKSPACE_ID = 7;
export const RENEW = '2030-08-01T00:00:00.000000+00:00';

/** `pricing/{org}`: a Free plan read by a member, on a server that takes payments. */
export function memberPlan(overrides: Record<string, unknown> = {}) {
  return {
    id: 11,
    organization_id: ORG_ID,
    tier: 'free',
    core_limit_members: 1000,
    member_limit: 50,
    node_limit: null,
    seat_limit: 50,
    workspace_limit: 10,
    credit_allotment: 10000,
    program_dollars_spend_limit: null,
    organization_credit_limit: null,
    spot_usage_limit: 25,
    arm_usage_limit: 25,
    can_use_custom_networking: false,
    can_use_private_pypi: false,
    billing_periods: 1,
    started: '2030-07-01T00:00:00.000000+00:00',
    billing_method: '',
    subscription_status: null,
    renew_date: RENEW,
    subscription_period_end: null,
    trial_expiration: null,
    next_phase_tier: null,
    cancel_at: null,
    cumulus_credit_value: 0.05,
    spend_limit_should_stop_instances: true,
    billing_configured: true,
    can_update_limits: false,
    can_change_plan: false,
    can_update_staff: false,
    ...overrides,
  };
}

/** The same plan as an organization admin reads it. */
export const adminPlan = (overrides: Record<string, unknown> = {}) =>
  memberPlan({ can_update_limits: true, can_change_plan: true, ...overrides });

/** `pricing/usage/{org}`. */
export function planUsage(overrides: Record<string, unknown> = {}) {
  return {
    id: 11,
    billing_method: '',
    renew_date: RENEW,
    credits_used: 1234.5,
    dollars_spent: 61.73,
    credit_allotment: 10000,
    organization_credit_limit: null,
    program_dollars_spend_limit: null,
    program_credits_usage_percent: null,
    program_dollars_spend_usage_percent: null,
    credit_allotment_usage_percent: 12.35,
    ...overrides,
  };
}

/** `pricing/workspace/{ws}/usage`. */
export function workspaceUsage(overrides: Record<string, unknown> = {}) {
  return {
    workspace_id: WORKSPACE_ID,
    renew_date: RENEW,
    credits_used: 40,
    credit_limit: 100,
    workspace_credits_used: 400,
    workspace_credit_limit: null,
    workspace_credits_user_usage_percent: 40,
    workspace_credits_usage_percent: null,
    ...overrides,
  };
}

export const acmeScope = {
  type: 'account',
  id: WORKSPACE_ID,
  name: 'acme',
  slug: 'acme',
  email: null,
  workspace_names: [],
  organization_id: ORG_ID,
};

const organization = { id: ORG_ID, name: 'Acme Inc', is_personal: false };

/** What the shell knows of the user: member (or admin) of Acme Inc and of its workspace acme. */
export function signedInAs(role: 'admin' | 'member', { workspaceAdmin = false } = {}): Partial<SignedIn> {
  return camelize({
    workspace_memberships: [
      {
        id: 70,
        account: {
          id: WORKSPACE_ID,
          slug: 'acme',
          name: 'acme',
          avatar_url: null,
          active: true,
          can_use_cumulus_hosted: true,
          organization,
        },
        is_admin: workspaceAdmin,
        is_default_account: true,
        credit_limit: 100,
        core_limit: 1000,
      },
    ],
    organization_memberships: [
      {
        id: 30,
        user: { id: 1, username: 'ada', full_name: 'Ada', preferred_name: '', profile: { avatar_url: null } },
        role,
        organization_id: ORG_ID,
        organization,
        workspace_memberships: [],
        displayed_pro_trial_expiration: null,
      },
    ],
  }) as unknown as Partial<SignedIn>;
}
