import type { Plan } from '../../../db/schema/index.js';

export const TIERS = ['essentials', 'free', 'basic', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** What a plan of a tier starts with; admins and staff change them per organization. */
export type PlanLimits = Pick<
  Plan,
  | 'coreLimitMembers'
  | 'memberLimit'
  | 'nodeLimit'
  | 'seatLimit'
  | 'workspaceLimit'
  | 'creditAllotment'
  | 'dollarsSpendLimitMicroUsd'
  | 'organizationCreditLimit'
  | 'spotUsageLimit'
  | 'armUsageLimit'
  | 'canUseCustomNetworking'
  | 'canUsePrivatePypi'
  | 'billingPeriods'
>;

/**
 * A self-hosted server bills no one unless an operator configures Stripe, so no tier caps credits
 * by default (organizationCreditLimit null): the allotment is what the plan includes, shown on
 * the Billing page, and an admin sets a cap when they want one. Team sizes are guard rails; so are
 * spot and ARM instances running at once (tiers gate them, with custom
 * networking and a private package index).
 */
const FREE: PlanLimits = {
  coreLimitMembers: 1000,
  memberLimit: 50,
  nodeLimit: null,
  seatLimit: 50,
  workspaceLimit: 10,
  creditAllotment: 10_000,
  dollarsSpendLimitMicroUsd: null,
  organizationCreditLimit: null,
  spotUsageLimit: 25,
  armUsageLimit: 25,
  canUseCustomNetworking: false,
  canUsePrivatePypi: false,
  billingPeriods: 1,
};

const UNLIMITED: PlanLimits = {
  coreLimitMembers: null,
  memberLimit: null,
  nodeLimit: null,
  seatLimit: null,
  workspaceLimit: null,
  creditAllotment: 10_000,
  dollarsSpendLimitMicroUsd: null,
  organizationCreditLimit: null,
  spotUsageLimit: null,
  armUsageLimit: null,
  canUseCustomNetworking: true,
  canUsePrivatePypi: true,
  billingPeriods: 1,
};

export const TIER_LIMITS: Record<Tier, PlanLimits> = {
  essentials: {
    ...FREE,
    memberLimit: 5,
    seatLimit: 5,
    workspaceLimit: 2,
    spotUsageLimit: 0,
    armUsageLimit: 0,
  },
  free: FREE,
  basic: {
    ...FREE,
    memberLimit: 100,
    seatLimit: 100,
    workspaceLimit: 25,
    spotUsageLimit: 100,
    armUsageLimit: 100,
    canUseCustomNetworking: true,
  },
  professional: { ...UNLIMITED, coreLimitMembers: 10_000 },
  enterprise: { ...UNLIMITED, creditAllotment: 0, billingPeriods: 12 },
};

/** How an organization pays: empty (no billing method), stripe (card), aws, invoice. */
export const BILLING_METHODS = ['', 'stripe', 'aws', 'invoice'] as const;
export type BillingMethod = (typeof BILLING_METHODS)[number];
export const NO_BILLING_METHOD: BillingMethod = '';

export const TIER_NAMES: Record<Tier, string> = {
  essentials: 'Essentials',
  free: 'Free',
  basic: 'Basic',
  professional: 'Professional',
  enterprise: 'Enterprise',
};
