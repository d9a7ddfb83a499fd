import type Stripe from 'stripe';
import { stripeEvents } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError } from '../../../http/errors.js';
import { recordBillingEvent } from '../pricing/events.js';
import { cancelReplaced } from './replace.js';
import { callStripe, stripeOf } from './stripe.js';
import { applySubscription, organizationFor, PAYING } from './sync.js';

/** Stripe's signature timestamps older than this are refused (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

const invalidSignature = (reason: string) =>
  new ApiError(400, { detail: `Invalid Stripe signature: ${reason}`, code: 'INVALID_SIGNATURE' });

/** Verifies a webhook's `Stripe-Signature` over its raw body and answers the event it carries. */
export function verifyWebhook(
  deps: Pick<Deps, 'config'>,
  raw: Buffer,
  signature: string | undefined,
): Stripe.Event {
  const { billing } = deps.config;
  const stripe = stripeOf(billing);
  if (!stripe || !billing.stripeWebhookSecret)
    throw new ApiError(400, {
      detail: 'Stripe webhooks are not configured on this server (CUMULUS_STRIPE_WEBHOOK_SECRET).',
      code: 'BILLING_NOT_CONFIGURED',
    });
  if (!signature) throw invalidSignature('the Stripe-Signature header is missing.');
  try {
    return stripe.webhooks.constructEvent(
      raw,
      signature,
      billing.stripeWebhookSecret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
  } catch (err) {
    throw invalidSignature(err instanceof Error ? err.message : 'it does not match.');
  }
}

/**
 * What applying a subscription takes: when it pays, every other subscription of the organization
 * still paying is cancelled in Stripe first (a confirmed second checkout replaces the first, so
 * the organization is billed once), and their cancelled state is applied after it.
 */
async function applyReplacing(
  deps: Pick<Deps, 'db'>,
  stripe: Stripe,
  organizationId: number,
  sub: Stripe.Subscription,
): Promise<(tx: Deps['db']) => Promise<void>> {
  const replaced = PAYING.has(sub.status)
    ? await cancelReplaced(deps.db, stripe, organizationId, sub.id)
    : [];
  return async (tx) => {
    await applySubscription(tx, organizationId, sub);
    for (const old of replaced) await applySubscription(tx, organizationId, old);
  };
}

/**
 * Applies a verified event once (its id is recorded in the same transaction). Whatever must be
 * read from Stripe is read before the transaction opens.
 */
export async function handleWebhook(deps: Pick<Deps, 'config' | 'db'>, event: Stripe.Event) {
  const stripe = stripeOf(deps.config.billing)!;
  let apply: ((tx: Deps['db']) => Promise<void>) | null = null;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (!subscriptionId) break;
      const sub = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId));
      const org = await organizationFor(deps.db, session.metadata, idOf(session.customer));
      if (org !== null) apply = await applyReplacing(deps, stripe, org, sub);
      break;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.trial_will_end': {
      // Stripe sends events in no guaranteed order: what the subscription is now, not what the
      // event carried (a late "updated: active" must not revive a cancelled subscription).
      const sub = await callStripe(() => stripe.subscriptions.retrieve(event.data.object.id));
      const org = await organizationFor(deps.db, sub.metadata, idOf(sub.customer));
      if (org !== null) apply = await applyReplacing(deps, stripe, org, sub);
      break;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const org = await organizationFor(deps.db, invoice.metadata, idOf(invoice.customer));
      if (org === null) break;
      const paid = event.type === 'invoice.paid';
      const amount = ((paid ? invoice.amount_paid : invoice.amount_due) / 100).toFixed(2);
      apply = async (tx) => {
        await recordBillingEvent(tx, {
          organizationId: org,
          kind: paid ? 'payment' : 'payment-failed',
          detail: paid
            ? `Invoice ${invoice.number ?? invoice.id} was paid: ${amount} ${invoice.currency.toUpperCase()}.`
            : `Payment of invoice ${invoice.number ?? invoice.id} (${amount} ${invoice.currency.toUpperCase()}) failed; Stripe will retry.`,
          data: { invoice: invoice.id, amount_cents: paid ? invoice.amount_paid : invoice.amount_due },
        });
      };
      break;
    }
  }
  const applied = await deps.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!fresh) return false;
    if (apply) await apply(tx);
    return true;
  });
  return { received: true, duplicate: !applied };
}
