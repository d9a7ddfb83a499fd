import type { Plan } from '../../../db/schema/index.js';
import { z } from '../../../http/zod.js';

const limit = z.number().int().nullable();

// The organization answer shows its active plan (billing's, handed in through IdentityPorts.plans);
// these are the fields it shows, which billing's plan answers share.

/** The tier's gates, on the organization and its plan. */
export const planGatesFields = {
  /** Spot instances running at once across the organization; null: no limit, 0: none. */
  spot_usage_limit: limit,
  /** ARM (aarch64) instances running at once across the organization; null: no limit, 0: none. */
  arm_usage_limit: limit,
  can_use_custom_networking: z.boolean(),
  can_use_private_pypi: z.boolean(),
  /** Months one billing period (one invoice) covers; usage limits reset monthly whatever it is. */
  billing_periods: z.number().int(),
};

/** The tier's gates, as the organization and the plan answer them. */
export const planGatesOf = (p: Plan) => ({
  spot_usage_limit: p.spotUsageLimit,
  arm_usage_limit: p.armUsageLimit,
  can_use_custom_networking: p.canUseCustomNetworking,
  can_use_private_pypi: p.canUsePrivatePypi,
  billing_periods: p.billingPeriods,
});
