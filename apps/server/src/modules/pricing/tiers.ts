import type { Program } from '../../db/schema/index.js';

export const TIERS = ['essentials', 'free', 'basic', 'professional', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** What a program of a tier starts with; admins and staff change them per organization. */
export type ProgramLimits = Pick<
  Program,
  | 'coreLimitMembers'
  | 'memberLimit'
  | 'nodeLimit'
  | 'seatLimit'
  | 'workspaceLimit'
  | 'creditAllotment'
  | 'dollarsSpendLimitMicroUsd'
  | 'organizationCreditLimit'
>;

/**
 * A self-hosted server bills no one unless an operator configures Stripe, so no tier caps credits
 * by default (organizationCreditLimit null): the allotment is what the plan includes, shown on
 * the Billing page, and an admin sets a cap when they want one. Team sizes are guard rails.
 */
const FREE: ProgramLimits = {
  coreLimitMembers: 1000,
  memberLimit: 50,
  nodeLimit: null,
  seatLimit: 50,
  workspaceLimit: 10,
  creditAllotment: 10_000,
  dollarsSpendLimitMicroUsd: null,
  organizationCreditLimit: null,
};

const UNLIMITED: ProgramLimits = {
  coreLimitMembers: null,
  memberLimit: null,
  nodeLimit: null,
  seatLimit: null,
  workspaceLimit: null,
  creditAllotment: 10_000,
  dollarsSpendLimitMicroUsd: null,
  organizationCreditLimit: null,
};

export const TIER_LIMITS: Record<Tier, ProgramLimits> = {
  essentials: { ...FREE, memberLimit: 5, seatLimit: 5, workspaceLimit: 2 },
  free: FREE,
  basic: { ...FREE, memberLimit: 100, seatLimit: 100, workspaceLimit: 25 },
  professional: { ...UNLIMITED, coreLimitMembers: 10_000 },
  enterprise: { ...UNLIMITED, creditAllotment: 0 },
};

export const TIER_NAMES: Record<Tier, string> = {
  essentials: 'Essentials',
  free: 'Free',
  basic: 'Basic',
  professional: 'Professional',
  enterprise: 'Enterprise',
};
