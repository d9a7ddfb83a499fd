import type { Db } from '../../db/client.js';
import type { Plan } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';

/**
 * What identity asks of billing, which owns plans (their tiers, limits and history). Identity sits
 * below billing and never imports it: server.ts hands these in, made from what billing exports.
 */
export interface PlanPort {
  /** The organization's active plan: its limits gate members, seats, workspaces and what clusters run. */
  activePlan(db: Db, organizationId: number): Promise<Plan>;
  /** The active plans of these organizations, by organization id (each has one). */
  activePlans(db: Db, organizationIds: number[]): Promise<Map<number, Plan>>;
  /** Starts a new organization on its first plan, inside the transaction that makes it. */
  startFirstPlan(tx: Db, organizationId: number): Promise<void>;
  /** When credits renew and usage limits reset (the organization answer's `renew_date`). */
  renewsAt(): string;
}

/**
 * What an organization's answers show of its billing. Billing owns it (how the organization pays,
 * its Stripe customer and subscription, `organization_billing`); identity only shows these facts,
 * never the Stripe customer.
 */
export interface ShownBilling {
  /** '' (no billing method), stripe, aws or invoice. */
  billingMethod: string;
  /** Dollars one credit costs, in millionths. */
  creditValueMicroUsd: number;
  spendLimitShouldStopInstances: boolean;
  subscriptionStatus: string | null;
  trialExpiration: Date | null;
  nextPhaseTier: Plan['tier'] | null;
  cancelAt: Date | null;
}

/** What identity asks of billing's organization state, to present an organization and memberships. */
export interface BillingPort {
  /** The organization's billing, as its answer shows it. */
  billingOf(db: Db, organizationId: number): Promise<ShownBilling>;
  /** When each of these organizations' Pro trial ends (null: no trial), by organization id. */
  trialsOf(db: Db, organizationIds: number[]): Promise<Map<number, Date | null>>;
}

/**
 * What identity's tokens tell onboarding, which sits above it and keeps users' flags: a user made
 * an API token, or activated one with `cumulus login` (the client is installed and was used).
 */
export interface OnboardingPort {
  tokenMade(tx: Db, userId: number): Promise<void>;
  clientUsed(tx: Db, userId: number): Promise<void>;
}

/** What identity asks of the domains above it. */
export interface IdentityPorts {
  plans: PlanPort;
  billing: BillingPort;
  onboarding: OnboardingPort;
}

/** Deps of identity's routes: the kernel's and its ports. */
export type IdentityDeps = Deps & { identityPorts: IdentityPorts };
