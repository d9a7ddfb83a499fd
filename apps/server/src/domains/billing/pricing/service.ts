import type { Organization, Plan, User } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { fieldError } from '../../../http/errors.js';
import type { z } from '../../../http/zod.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { enqueueEmail } from '../../../mail/outbox.js';
import { type OrganizationAccess, planGatesOf, staffEmails } from '../../identity/index.js';
import {
  type BillingChanges,
  billingOf,
  type OrganizationBilling,
  updateBilling,
} from '../organization-billing.js';
import { creditsRenewAt } from '../plans/periods.js';
import { activePlan, changeTier, updatePlan } from '../plans/service.js';
import { NO_BILLING_METHOD, type PlanLimits, TIER_NAMES } from '../plans/tiers.js';
import { payingSubscription } from '../subscriptions/service.js';
import { callStripe, stripeOf } from '../subscriptions/stripe.js';
import { applySubscription } from '../subscriptions/sync.js';
import { planConsumption } from './consumption.js';
import { recordBillingEvent } from './events.js';
import { assertMayChangePlan } from './plan-changes.js';
import type { planSchema, updateLimitsBody, updateStaffBody } from './schemas.js';

const MICRO = 1_000_000;
type PlanOut = z.infer<typeof planSchema>;
type PricingDeps = Pick<Deps, 'db' | 'config' | 'loops'>;

export async function presentPlan(
  deps: Pick<Deps, 'db' | 'config'>,
  plan: Plan,
  billing: OrganizationBilling,
  viewer: { isAdmin: boolean; isStaff: boolean },
): Promise<PlanOut> {
  return {
    id: plan.id,
    organization_id: plan.organizationId,
    tier: plan.tier,
    core_limit_members: plan.coreLimitMembers,
    member_limit: plan.memberLimit,
    node_limit: plan.nodeLimit,
    seat_limit: plan.seatLimit,
    workspace_limit: plan.workspaceLimit,
    credit_allotment: plan.creditAllotment,
    program_dollars_spend_limit:
      plan.dollarsSpendLimitMicroUsd === null ? null : plan.dollarsSpendLimitMicroUsd / MICRO,
    organization_credit_limit: plan.organizationCreditLimit,
    ...planGatesOf(plan),
    started: isoTime(plan.started),
    billing_method: billing.billingMethod,
    subscription_status: billing.subscriptionStatus,
    renew_date: creditsRenewAt(),
    subscription_period_end: isoTimeOrNull(
      (await payingSubscription(deps.db, plan.organizationId))?.currentPeriodEnd,
    ),
    trial_expiration: isoTimeOrNull(billing.trialExpiration),
    next_phase_tier: billing.nextPhaseTier,
    cancel_at: isoTimeOrNull(billing.cancelAt),
    cumulus_credit_value: billing.creditValueMicroUsd / MICRO,
    spend_limit_should_stop_instances: billing.spendLimitShouldStopInstances,
    billing_configured: stripeOf(deps.config.billing) !== null,
    can_update_limits: viewer.isAdmin || viewer.isStaff,
    can_change_plan: viewer.isAdmin && plan.tier !== 'enterprise',
    can_update_staff: viewer.isStaff,
  };
}

const viewerOf = (access: OrganizationAccess, user: User) => ({
  isAdmin: access.isAdmin,
  isStaff: user.isStaff,
});

async function answer(deps: PricingDeps, access: OrganizationAccess) {
  const organizationId = access.organization.id;
  return presentPlan(
    deps,
    await activePlan(deps.db, organizationId),
    await billingOf(deps.db, organizationId),
    viewerOf(access, access.user),
  );
}

/** `pricing/{org}`: the active plan with the organization's billing; any reader of it. */
export const getPlan = answer;

export async function getPlanUsage(deps: PricingDeps, { organization }: OrganizationAccess) {
  const organizationId = organization.id;
  const [plan, billing] = await Promise.all([
    activePlan(deps.db, organizationId),
    billingOf(deps.db, organizationId),
  ]);
  return {
    id: plan.id,
    billing_method: billing.billingMethod,
    renew_date: creditsRenewAt(),
    credit_allotment: plan.creditAllotment,
    organization_credit_limit: plan.organizationCreditLimit,
    program_dollars_spend_limit:
      plan.dollarsSpendLimitMicroUsd === null ? null : plan.dollarsSpendLimitMicroUsd / MICRO,
    ...(await planConsumption(deps.db, plan)),
  };
}

const toMicro = (dollars: number | null) => (dollars === null ? null : Math.round(dollars * MICRO));

/** The names users know the plan's fields by (the API's), for billing events. */
const FIELD_NAMES: Record<string, string> = {
  tier: 'tier',
  coreLimitMembers: 'core_limit_members',
  memberLimit: 'member_limit',
  nodeLimit: 'node_limit',
  seatLimit: 'seat_limit',
  workspaceLimit: 'workspace_limit',
  spotUsageLimit: 'spot_usage_limit',
  armUsageLimit: 'arm_usage_limit',
  canUseCustomNetworking: 'can_use_custom_networking',
  canUsePrivatePypi: 'can_use_private_pypi',
  billingPeriods: 'billing_periods',
  creditAllotment: 'credit_allotment',
  organizationCreditLimit: 'organization_credit_limit',
  dollarsSpendLimitMicroUsd: 'program_dollars_spend_limit',
  spendLimitShouldStopInstances: 'spend_limit_should_stop_instances',
  billingMethod: 'billing_method',
  creditValueMicroUsd: 'cumulus_credit_value',
  trialExpiration: 'trial_expiration',
  nextPhaseTier: 'next_phase_tier',
  cancelAt: 'cancel_at',
};
/** Money kept in millionths reads as dollars in events. */
const shown = (key: string, v: unknown) =>
  typeof v === 'number' && key.endsWith('MicroUsd') ? v / MICRO : v instanceof Date ? v.toISOString() : v;

/** What changed, for the billing event: API field name → [before, after]. */
function changed(before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(after)
      .filter(([k, v]) => v !== undefined && String(before[k]) !== String(v))
      .map(([k, v]) => [FIELD_NAMES[k] ?? k, [shown(k, before[k] ?? null), shown(k, v)]]),
  );
}

/**
 * `pricing/update/{org}`: organization admins set the organization's credit limit and spend
 * limit. Where this server takes payments, an organization without a billing method may not
 * lift its credit limit above what its plan includes.
 */
export async function updateLimits(
  deps: PricingDeps,
  access: OrganizationAccess,
  body: z.infer<typeof updateLimitsBody>,
) {
  const { user } = access;
  const organizationId = access.organization.id;
  const plan = await activePlan(deps.db, organizationId);
  const limit = body.organization_credit_limit;
  if (
    limit !== undefined &&
    !user.isStaff &&
    stripeOf(deps.config.billing) &&
    (await billingOf(deps.db, organizationId)).billingMethod === NO_BILLING_METHOD &&
    (limit === null || limit > plan.creditAllotment)
  )
    throw fieldError(
      'organization_credit_limit',
      `Add a payment method (upgrade to Professional) to raise the credit limit above the ${plan.creditAllotment} credits your plan includes.`,
    );
  await applyChanges(deps, user, access.organization, plan, body);
  return answer(deps, access);
}

/** `pricing/update-staff/{org}`: staff set any field of the plan and the organization's billing. */
export async function updateStaff(
  deps: PricingDeps,
  access: OrganizationAccess,
  body: z.infer<typeof updateStaffBody>,
) {
  const { user, organization } = access;
  const organizationId = organization.id;
  const plan = await activePlan(deps.db, organizationId);
  await applyChanges(deps, user, organization, plan, body);
  return answer(deps, access);
}

async function applyChanges(
  deps: PricingDeps,
  user: User,
  organization: Organization,
  plan: Plan,
  body: z.infer<typeof updateStaffBody>,
) {
  const limits: Partial<PlanLimits> & { tier?: Plan['tier'] } = {
    ...(body.tier !== undefined && { tier: body.tier }),
    ...(body.core_limit_members !== undefined && { coreLimitMembers: body.core_limit_members }),
    ...(body.member_limit !== undefined && { memberLimit: body.member_limit }),
    ...(body.node_limit !== undefined && { nodeLimit: body.node_limit }),
    ...(body.seat_limit !== undefined && { seatLimit: body.seat_limit }),
    ...(body.workspace_limit !== undefined && { workspaceLimit: body.workspace_limit }),
    ...(body.spot_usage_limit !== undefined && { spotUsageLimit: body.spot_usage_limit }),
    ...(body.arm_usage_limit !== undefined && { armUsageLimit: body.arm_usage_limit }),
    ...(body.can_use_custom_networking !== undefined && {
      canUseCustomNetworking: body.can_use_custom_networking,
    }),
    ...(body.can_use_private_pypi !== undefined && { canUsePrivatePypi: body.can_use_private_pypi }),
    ...(body.billing_periods !== undefined && { billingPeriods: body.billing_periods }),
    ...(body.credit_allotment !== undefined && { creditAllotment: body.credit_allotment }),
    ...(body.organization_credit_limit !== undefined && {
      organizationCreditLimit: body.organization_credit_limit,
    }),
    ...(body.program_dollars_spend_limit !== undefined && {
      dollarsSpendLimitMicroUsd: toMicro(body.program_dollars_spend_limit),
    }),
  };
  const billing: BillingChanges = {
    ...(body.spend_limit_should_stop_instances !== undefined && {
      spendLimitShouldStopInstances: body.spend_limit_should_stop_instances,
    }),
    ...(body.billing_method !== undefined && { billingMethod: body.billing_method }),
    ...(body.cumulus_credit_value !== undefined && {
      creditValueMicroUsd: Math.round(body.cumulus_credit_value * MICRO),
    }),
    ...(body.trial_expiration !== undefined && {
      trialExpiration: body.trial_expiration === null ? null : new Date(body.trial_expiration),
    }),
    ...(body.next_phase_tier !== undefined && { nextPhaseTier: body.next_phase_tier }),
    ...(body.cancel_at !== undefined && {
      cancelAt: body.cancel_at === null ? null : new Date(body.cancel_at),
    }),
  };
  const diff = {
    ...changed(plan as unknown as Record<string, unknown>, limits),
    ...changed((await billingOf(deps.db, organization.id)) as unknown as Record<string, unknown>, billing),
  };
  if (Object.keys(diff).length === 0) return;
  await deps.db.transaction(async (tx) => {
    // A new tier starts a plan with that tier's limits and gates; fields given beside it win.
    const { tier, ...rest } = limits;
    if (tier !== undefined && tier !== plan.tier) await changeTier(tx, organization.id, tier);
    await updatePlan(tx, organization.id, rest);
    await updateBilling(tx, organization.id, billing);
    await recordBillingEvent(tx, {
      organizationId: organization.id,
      userId: user.id,
      kind: 'limits',
      // "alice set organization credit limit to 500, program dollars spend limit to no limit."
      detail: `${user.username} set ${Object.entries(diff)
        .map(([k, [, after]]) => `${k.replaceAll('_', ' ')} to ${after ?? 'no limit'}`)
        .join(', ')}.`,
      data: { changes: diff },
    });
  });
  // Limits act at once: lowered ones stop what they cover, raised ones stop refusing.
  deps.loops.wake('limits');
}

/** Moves an organization onto a tier now (clearing any scheduled change), recorded as a plan event. */
async function moveToTier(
  deps: PricingDeps,
  user: User,
  plan: Plan,
  tier: Plan['tier'],
  billingMethod?: string,
) {
  await deps.db.transaction(async (tx) => {
    await changeTier(tx, plan.organizationId, tier);
    await updateBilling(tx, plan.organizationId, {
      nextPhaseTier: null,
      cancelAt: null,
      ...(billingMethod !== undefined && { billingMethod }),
    });
    await recordBillingEvent(tx, {
      organizationId: plan.organizationId,
      userId: user.id,
      kind: 'plan',
      detail: `${user.username} moved the plan from ${TIER_NAMES[plan.tier]} to ${TIER_NAMES[tier]}.`,
      data: { from: plan.tier, to: tier },
    });
  });
  // The new tier's limits act at once.
  deps.loops.wake('limits');
}

/**
 * `downgrade-to-free/{org}`: an organization paying by card keeps its plan to the end of the
 * period it paid for (Stripe cancels then; next_phase_tier and cancel_at say so); any other moves
 * to free now.
 */
export async function downgradeToFree(deps: PricingDeps, access: OrganizationAccess) {
  const { user, organization } = access;
  const organizationId = organization.id;
  const plan = await activePlan(deps.db, organizationId);
  assertMayChangePlan(user, plan);
  const sub = await payingSubscription(deps.db, organizationId);
  const stripe = stripeOf(deps.config.billing);
  if (sub && stripe) {
    const updated = await callStripe(() =>
      stripe.subscriptions.update(sub.stripeSubscriptionId, { cancel_at_period_end: true }),
    );
    await deps.db.transaction(async (tx) => {
      await applySubscription(tx, organizationId, updated);
      await recordBillingEvent(tx, {
        organizationId,
        userId: user.id,
        kind: 'plan',
        detail: `${user.username} scheduled a downgrade to Free at the end of the paid period.`,
        data: { from: plan.tier, to: 'free' },
      });
    });
  } else if (plan.tier !== 'free') {
    await moveToTier(
      deps,
      user,
      plan,
      'free',
      (await billingOf(deps.db, organizationId)).billingMethod === 'stripe' ? NO_BILLING_METHOD : undefined,
    );
  }
  return answer(deps, access);
}

/**
 * `upgrade-to-enterprise/{org}`: staff move an organization onto Enterprise (invoiced, no plan
 * limits); an organization admin's call asks for it — it is recorded, shown as the next phase and
 * mailed to the server's staff.
 */
export async function upgradeToEnterprise(deps: PricingDeps, access: OrganizationAccess) {
  const { user, organization } = access;
  const organizationId = organization.id;
  const plan = await activePlan(deps.db, organizationId);
  if (plan.tier === 'enterprise') return answer(deps, access);
  if (user.isStaff) {
    await moveToTier(deps, user, plan, 'enterprise', 'invoice');
    return answer(deps, access);
  }
  const staff = await staffEmails(deps.db);
  await deps.db.transaction(async (tx) => {
    await updateBilling(tx, organizationId, { nextPhaseTier: 'enterprise' });
    await recordBillingEvent(tx, {
      organizationId,
      userId: user.id,
      kind: 'plan',
      detail: `${user.username} asked to move ${organization.name} to Enterprise.`,
      data: { from: plan.tier, to: 'enterprise', requested: true },
    });
    for (const email of staff)
      await enqueueEmail(tx, {
        to: email,
        subject: `${organization.name} asks for the Enterprise plan`,
        text: `${user.username} (${user.email}) asked to move the organization ${organization.name} (id ${organization.id}) from ${TIER_NAMES[plan.tier]} to Enterprise.\n\nStaff apply it from the organization's Billing page (${deps.config.publicUrl}/billing?account=${organization.id}).`,
      });
  });
  deps.loops.wake('mail-outbox');
  return answer(deps, access);
}
