import { offsetQuery, pageQuery } from '../../../http/pagination.js';
import { id, text, z } from '../../../http/zod.js';
import { planGatesFields } from '../../identity/index.js';
import { BILLING_METHODS, TIERS } from '../plans/tiers.js';
import { BILLING_EVENT_KEYS, BILLING_EVENT_KINDS } from './events.js';

const limit = z.number().int().nullable();
const tier = z.enum(TIERS);

export const planSchema = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  tier,
  core_limit_members: limit,
  member_limit: limit,
  node_limit: limit,
  seat_limit: limit,
  workspace_limit: limit,
  credit_allotment: z.number().int(),
  /** Dollars a month; null: no limit. */
  program_dollars_spend_limit: z.number().nullable(),
  organization_credit_limit: limit,
  ...planGatesFields,
  started: z.string(),
  // The organization's billing, which the plan page shows with it.
  billing_method: z.string(),
  subscription_status: z.string().nullable(),
  /** When this month's credits renew and limits reset: the 1st of next month (UTC). */
  renew_date: z.string(),
  /** When the paying Stripe subscription renews (its period end); null without one. */
  subscription_period_end: z.string().nullable(),
  trial_expiration: z.string().nullable(),
  next_phase_tier: tier.nullable(),
  cancel_at: z.string().nullable(),
  cumulus_credit_value: z.number(),
  spend_limit_should_stop_instances: z.boolean(),
  /** Whether this server takes payments (Stripe keys set). */
  billing_configured: z.boolean(),
  /** What the caller may do: organization admins edit their limits and change plans; staff everything. */
  can_update_limits: z.boolean(),
  can_change_plan: z.boolean(),
  can_update_staff: z.boolean(),
});

const nonNegative = (field: string) =>
  z
    .number({ error: `${field} must be a number or null.` })
    .int(`${field} must be a whole number.`)
    .min(0, `${field} must be greater than or equal to 0.`)
    .max(2_000_000_000)
    .nullable();

const dollars = z
  .number({ error: 'Give dollars as a number, or null for no limit.' })
  .min(0, 'The spend limit must be greater than or equal to 0.')
  .max(100_000_000)
  .nullable();

/** `pricing/update/{org}`: what organization admins set themselves. */
export const updateLimitsBody = z
  .object({
    organization_credit_limit: nonNegative('The credit limit').optional(),
    program_dollars_spend_limit: dollars.optional(),
    spend_limit_should_stop_instances: z.boolean().optional(),
  })
  .strict();

/** `pricing/update-staff/{org}`: staff set every field of the plan. */
export const updateStaffBody = updateLimitsBody
  .extend({
    tier: tier.optional(),
    core_limit_members: nonNegative('The core limit').optional(),
    member_limit: nonNegative('The member limit').optional(),
    node_limit: nonNegative('The node limit').optional(),
    seat_limit: nonNegative('The seat limit').optional(),
    workspace_limit: nonNegative('The workspace limit').optional(),
    spot_usage_limit: nonNegative('The spot usage limit').optional(),
    arm_usage_limit: nonNegative('The ARM usage limit').optional(),
    can_use_custom_networking: z.boolean().optional(),
    can_use_private_pypi: z.boolean().optional(),
    billing_periods: z
      .number()
      .int('Billing periods must be a whole number of months.')
      .min(1, 'A billing period is at least 1 month.')
      .max(120)
      .optional(),
    credit_allotment: z.number().int().min(0).max(2_000_000_000).optional(),
    /** Empty: no billing method. */
    billing_method: z.enum(BILLING_METHODS).optional(),
    cumulus_credit_value: z.number().min(0).max(1000).optional(),
    trial_expiration: z.iso.datetime({ offset: true }).nullable().optional(),
    next_phase_tier: tier.nullable().optional(),
    cancel_at: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .strict();

export const tierChangeBody = z.object({ target_tier: tier.optional() }).nullish();

export const planUsageSchema = z.object({
  id: z.number().int(),
  billing_method: z.string(),
  renew_date: z.string(),
  credits_used: z.number(),
  dollars_spent: z.number(),
  credit_allotment: z.number().int(),
  organization_credit_limit: limit,
  program_dollars_spend_limit: z.number().nullable(),
  program_credits_usage_percent: z.number().nullable(),
  program_dollars_spend_usage_percent: z.number().nullable(),
  credit_allotment_usage_percent: z.number().nullable(),
});

export const workspaceUsageSchema = z.object({
  workspace_id: z.number().int(),
  renew_date: z.string(),
  credits_used: z.number(),
  credit_limit: limit,
  workspace_credits_used: z.number(),
  workspace_credit_limit: limit,
  workspace_credits_user_usage_percent: z.number().nullable(),
  workspace_credits_usage_percent: z.number().nullable(),
});

export const organizationUsageQuery = z
  .object({
    start_date: z.iso.datetime({ offset: true, error: 'Give start_date as an ISO timestamp.' }),
    end_date: z.iso.datetime({ offset: true, error: 'Give end_date as an ISO timestamp.' }),
  })
  .refine((q) => Date.parse(q.end_date) > Date.parse(q.start_date), {
    path: ['end_date'],
    message: 'The end date is before the start date.',
  })
  .refine((q) => Date.parse(q.end_date) - Date.parse(q.start_date) <= 3660 * 86_400_000, {
    path: ['end_date'],
    message: 'At most ten years at once.',
  });

const usageTotals = {
  credits: z.number(),
  cumulus_cost: z.number(),
  approx_cloud_cost: z.number(),
  instance_minutes: z.number().int(),
};
export const organizationUsageSchema = z.object({
  organization_id: z.number().int(),
  start_date: z.string(),
  end_date: z.string(),
  ...usageTotals,
  workspaces: z.array(
    z.object({
      account_id: z.number().int(),
      account_slug: z.string().nullable(),
      account_name: z.string(),
      ...usageTotals,
    }),
  ),
});

export const billingEventSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  detail: z.string(),
  organization_id: z.number().int(),
  organization: z.string(),
  account_id: z.number().int().nullable(),
  account: z.string().nullable(),
  user: z.string().nullable(),
  cluster_id: z.number().int().nullable(),
  cluster: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  created: z.string(),
});

const when = z.iso.datetime({ offset: true, error: 'Give an ISO timestamp.' }).transform((v) => new Date(v));
const eventFilters = {
  kind: text(32).min(1).optional(),
  cluster: text(128).min(1).optional(),
  cluster_id: id.optional(),
  event_after: when.optional(),
  event_before: when.optional(),
};

export const billingEventsQuery = offsetQuery.extend({
  organization: text(64).min(1).optional(),
  account: text(64).min(1).optional(),
  organization_id: id.optional(),
  account_id: id.optional(),
  ...eventFilters,
});

export const workspaceBillingEventsQuery = pageQuery.extend(eventFilters);

export const billingEventValuesQuery = z.object({
  key: z.enum(BILLING_EVENT_KEYS),
  starts_with: text(100).default(''),
});

export const createBillingEventBody = z.object({
  organization_id: id,
  account_id: id.optional(),
  kind: z.enum(BILLING_EVENT_KINDS).default('note'),
  detail: text(2000).min(1, 'Say what happened.'),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const coreUsageSchema = z.object({
  account: z.string(),
  /** Cores of this member's live clusters in the workspace: a scheduler's machine's, a worker's threads. */
  cores_used: z.number().int(),
  core_limit: limit,
  /** Cores of every live cluster in the workspace. */
  workspace_cores_used: z.number().int(),
  /** Instances live across the organization, against the plan's node limit. */
  organization_nodes_used: z.number().int(),
  node_limit: limit,
});
