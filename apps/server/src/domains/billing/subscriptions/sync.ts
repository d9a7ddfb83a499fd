import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client.js';
import { subscriptions } from '../../../db/schema/index.js';
import { findOrganization } from '../../identity/index.js';
import { billingOf, organizationOfStripeCustomer, updateBilling } from '../organization-billing.js';
import { activePlan, changeTier } from '../plans/service.js';
import { NO_BILLING_METHOD, TIERS, type Tier } from '../plans/tiers.js';
import { recordBillingEvent } from '../pricing/events.js';

/** Statuses in which a subscription pays for its tier (past_due keeps it while Stripe retries). */
export const PAYING = new Set(['active', 'trialing', 'past_due']);
/** Statuses that end it. */
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired']);

const fromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** The end of the subscription's current period (on the subscription, or on its items since 2025). */
function periodEnd(sub: Stripe.Subscription): Date | null {
  const legacy = (sub as unknown as { current_period_end?: number }).current_period_end;
  return fromUnix(legacy ?? sub.items?.data?.[0]?.current_period_end);
}

/** Which organization a Stripe object is about: its metadata, else the customer it belongs to. */
export async function organizationFor(
  db: Db,
  metadata: Stripe.Metadata | null | undefined,
  customer: string | null,
): Promise<number | null> {
  const fromMetadata = Number(metadata?.organization_id);
  if (Number.isInteger(fromMetadata) && fromMetadata > 0) {
    const org = await findOrganization(db, fromMetadata);
    if (org) return org.id;
  }
  if (!customer) return null;
  return organizationOfStripeCustomer(db, customer);
}

/**
 * Applies what Stripe says of a subscription: its row, the organization's status, trial and
 * scheduled change, and the tier (a paying subscription moves the organization onto its tier and
 * card billing; an ended one back to free), recording each change as a billing event.
 */
export async function applySubscription(
  tx: Db,
  organizationId: number,
  sub: Stripe.Subscription,
): Promise<void> {
  const tierName = sub.metadata?.tier;
  const tier: Tier = (TIERS as readonly string[]).includes(tierName ?? '')
    ? (tierName as Tier)
    : 'professional';
  const customer = idOf(sub.customer)!;
  const end = periodEnd(sub);
  const cancelAt = fromUnix(sub.cancel_at) ?? (sub.cancel_at_period_end ? end : null);
  const values = {
    organizationId,
    stripeCustomerId: customer,
    status: sub.status,
    tier,
    currentPeriodEnd: end,
    cancelAt,
    trialEnd: fromUnix(sub.trial_end),
    updated: new Date(),
  };
  const [before] = await tx
    .select({ status: subscriptions.status })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, sub.id));
  await tx
    .insert(subscriptions)
    .values({ ...values, stripeSubscriptionId: sub.id })
    .onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: values });
  const paying = PAYING.has(sub.status);
  const ended = ENDED.has(sub.status);
  const { billingMethod } = await billingOf(tx, organizationId);
  // A subscription ending after a new checkout replaced it changes nothing: the new one speaks.
  const all = await tx
    .select({ id: subscriptions.stripeSubscriptionId, status: subscriptions.status })
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, organizationId));
  const anotherPays = all.some((s) => s.id !== sub.id && PAYING.has(s.status));
  if (ended && anotherPays) return;
  await updateBilling(tx, organizationId, {
    stripeCustomerId: customer,
    subscriptionStatus: sub.status,
    // Only a subscription that carries a trial says when it ends: one without keeps a trial staff set.
    ...(sub.trial_end && { trialExpiration: fromUnix(sub.trial_end) }),
    cancelAt: paying ? cancelAt : null,
    nextPhaseTier: paying && cancelAt ? 'free' : null,
    ...(paying && { billingMethod: 'stripe' }),
    ...(ended && billingMethod === 'stripe' && { billingMethod: NO_BILLING_METHOD }),
  });
  if (before?.status !== sub.status)
    await recordBillingEvent(tx, {
      organizationId,
      kind: 'subscription',
      detail: `Subscription ${sub.id} is ${sub.status.replace('_', ' ')}.`,
      data: { subscription: sub.id, status: sub.status, previous_status: before?.status ?? null },
    });
  const plan = await activePlan(tx, organizationId);
  const target: Tier | null = paying ? tier : ended && plan.tier === tier ? 'free' : null;
  if (target && target !== plan.tier) {
    await changeTier(tx, organizationId, target);
    await recordBillingEvent(tx, {
      organizationId,
      kind: 'plan',
      detail: `The plan changed from ${plan.tier} to ${target} (subscription ${sub.status.replace('_', ' ')}).`,
      data: { from: plan.tier, to: target, subscription: sub.id },
    });
  }
}
