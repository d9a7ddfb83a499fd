import { and, desc, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { type Organization, type Subscription, subscriptions, type User } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError, badRequest, fieldError, notFound } from '../../../http/errors.js';
import { isoTimeOrNull } from '../../../lib/time.js';
import type { OrganizationAccess, WorkspaceKey } from '../../identity/index.js';
import { billingOf, updateBilling } from '../organization-billing.js';
import { activePlan } from '../plans/service.js';
import { TIER_NAMES } from '../plans/tiers.js';
import { assertMayChangePlan } from '../pricing/plan-changes.js';
import { callStripe, requireStripe, stripeOf } from './stripe.js';
import { PAYING } from './sync.js';

const fromUnix = (seconds: number | null | undefined) =>
  seconds ? isoTimeOrNull(new Date(seconds * 1000)) : null;

export const presentSubscription = (s: Subscription) => ({
  id: s.id,
  organization_id: s.organizationId,
  stripe_subscription_id: s.stripeSubscriptionId,
  status: s.status,
  tier: s.tier,
  current_period_end: isoTimeOrNull(s.currentPeriodEnd),
  cancel_at: isoTimeOrNull(s.cancelAt),
  trial_end: isoTimeOrNull(s.trialEnd),
});

/** The organization's paying subscription, newest first; null without one. */
export async function payingSubscription(
  db: Deps['db'],
  organizationId: number,
): Promise<Subscription | null> {
  const [found] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.organizationId, organizationId), inArray(subscriptions.status, [...PAYING])))
    .orderBy(desc(subscriptions.created), desc(subscriptions.id))
    .limit(1);
  return found ?? null;
}

type SubscriptionQuery = { organization_id?: number; workspace_slug?: string; workspace_id?: number };

/** The workspace `active-subscription` names when it names no organization (for its `workspace` need). */
export function subscriptionWorkspace(query: SubscriptionQuery): WorkspaceKey | null {
  if (query.organization_id !== undefined) return null;
  if (query.workspace_slug) return { slug: query.workspace_slug };
  if (query.workspace_id) return { id: query.workspace_id };
  throw fieldError('organization_id', 'Give organization_id, workspace_slug or workspace_id.');
}

/** `active-subscription`: of the organization the route resolved, itself or through a workspace of it. */
export async function activeSubscription(deps: Pick<Deps, 'db'>, organizationId: number) {
  const found = await payingSubscription(deps.db, organizationId);
  return found ? presentSubscription(found) : null;
}

/** A subscription by id; the organization it belongs to is resolved for its route (`subscriptionOrganization`). */
export async function findSubscription(deps: Pick<Deps, 'db'>, id: number): Promise<Subscription> {
  const [found] = await deps.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!found) throw notFound();
  return found;
}

export async function subscriptionById(deps: Pick<Deps, 'db'>, access: OrganizationAccess, id: number) {
  const found = await findSubscription(deps, id);
  if (found.organizationId !== access.organization.id) throw notFound();
  return presentSubscription(found);
}

const billingUrl = (deps: Pick<Deps, 'config'>, organizationId: number, extra = '') =>
  `${deps.config.publicUrl}/billing?account=${organizationId}${extra}`;

/** The organization's Stripe customer, made (and remembered) at its first checkout. */
async function ensureCustomer(deps: Pick<Deps, 'db'>, stripe: Stripe, org: Organization, user: User) {
  const { stripeCustomerId } = await billingOf(deps.db, org.id);
  if (stripeCustomerId) return stripeCustomerId;
  const customer = await callStripe(() =>
    stripe.customers.create({
      name: org.name,
      email: user.email,
      metadata: { organization_id: String(org.id) },
    }),
  );
  await updateBilling(deps.db, org.id, { stripeCustomerId: customer.id });
  return customer.id;
}

/**
 * `checkout-session/{org}`: a Stripe Checkout for the Professional plan. An organization already
 * paying by card is asked to confirm (409 actionRequired confirm): the new subscription replaces
 * the old one when it completes (the webhook cancels the old one in Stripe). An Enterprise
 * organization's admins are told to contact us.
 */
export async function checkoutSession(
  deps: Pick<Deps, 'db' | 'config'>,
  access: OrganizationAccess,
  body: { target_tier: string },
  confirm: boolean,
) {
  const { user, organization } = access;
  const organizationId = organization.id;
  if (body.target_tier !== 'professional')
    throw fieldError(
      'target_tier',
      body.target_tier === 'enterprise'
        ? 'Contact us to make changes to your Enterprise plan'
        : 'Only the Professional plan is paid by card; choose professional.',
    );
  assertMayChangePlan(user, await activePlan(deps.db, organizationId));
  const stripe = requireStripe(deps.config.billing);
  const current = await payingSubscription(deps.db, organizationId);
  if (current && !confirm)
    throw new ApiError(409, {
      detail: `${organization.name} already has a ${TIER_NAMES[current.tier]} subscription (${current.status.replace('_', ' ')}). Continue to a new checkout? Once the new subscription is paid the current one is cancelled, so only one is ever billed.`,
      code: 'SUBSCRIPTION_EXISTS',
      actionRequired: 'confirm',
    });
  const customer = await ensureCustomer(deps, stripe, organization, user);
  const { stripePriceId, proMonthlyCents } = deps.config.billing;
  const metadata = { organization_id: String(organizationId), tier: 'professional' };
  const session = await callStripe(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(organizationId),
      line_items: [
        stripePriceId
          ? { price: stripePriceId, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: proMonthlyCents,
                recurring: { interval: 'month' },
                product_data: { name: 'Cumulus Professional' },
              },
            },
      ],
      metadata,
      subscription_data: { metadata },
      success_url: billingUrl(deps, organizationId, '&checkout=success'),
      cancel_url: billingUrl(deps, organizationId, '&checkout=cancelled'),
    }),
  );
  if (!session.url) throw badRequest('Stripe answered a checkout session without a link.', 'STRIPE_ERROR');
  return { id: session.id, url: session.url };
}

/** `billing-portal/{org}`: Stripe's page where an admin changes the card, contact and plan. */
export async function billingPortal(deps: Pick<Deps, 'db' | 'config'>, { organization }: OrganizationAccess) {
  const organizationId = organization.id;
  const stripe = requireStripe(deps.config.billing);
  const customer = (await billingOf(deps.db, organizationId)).stripeCustomerId;
  if (!customer)
    throw badRequest(
      `${organization.name} has no billing account yet: upgrade to the Professional plan to add a payment method.`,
      'NO_BILLING_ACCOUNT',
    );
  const session = await callStripe(() =>
    stripe.billingPortal.sessions.create({ customer, return_url: billingUrl(deps, organizationId) }),
  );
  return { url: session.url };
}

/** An organization admin's view of the Stripe customer: null when billing is off or there is none. */
async function customerOf(deps: Pick<Deps, 'db' | 'config'>, { organization }: OrganizationAccess) {
  const stripe = stripeOf(deps.config.billing);
  if (!stripe) return null;
  const customer = (await billingOf(deps.db, organization.id)).stripeCustomerId;
  return customer ? { stripe, customer } : null;
}

export async function paymentMethod(deps: Pick<Deps, 'db' | 'config'>, access: OrganizationAccess) {
  const found = await customerOf(deps, access);
  if (!found) return { payment_method: null };
  const { stripe, customer } = found;
  const record = await callStripe(() =>
    stripe.customers.retrieve(customer, { expand: ['invoice_settings.default_payment_method'] }),
  );
  let method =
    'deleted' in record && record.deleted
      ? null
      : ((record as Stripe.Customer).invoice_settings?.default_payment_method as Stripe.PaymentMethod | null);
  if (!method || typeof method === 'string') {
    const list = await callStripe(() => stripe.paymentMethods.list({ customer, type: 'card', limit: 1 }));
    method = list.data[0] ?? null;
  }
  const card = method?.card;
  return {
    payment_method: card
      ? { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year }
      : null,
  };
}

export async function paymentHistory(deps: Pick<Deps, 'db' | 'config'>, access: OrganizationAccess) {
  const found = await customerOf(deps, access);
  if (!found) return { items: [] };
  const { stripe, customer } = found;
  const invoices = await callStripe(() => stripe.invoices.list({ customer, limit: 24 }));
  return {
    items: invoices.data.map((i) => ({
      id: i.id ?? '',
      number: i.number ?? null,
      status: i.status ?? null,
      amount_due_cents: i.amount_due,
      amount_paid_cents: i.amount_paid,
      currency: i.currency,
      created: fromUnix(i.created),
      period_start: fromUnix(i.period_start),
      period_end: fromUnix(i.period_end),
      hosted_invoice_url: i.hosted_invoice_url ?? null,
    })),
  };
}

export async function invoicePreview(deps: Pick<Deps, 'db' | 'config'>, access: OrganizationAccess) {
  const found = await customerOf(deps, access);
  const sub = found ? await payingSubscription(deps.db, access.organization.id) : null;
  if (!found || !sub) return { invoice: null };
  const { stripe, customer } = found;
  const preview = await callStripe(() =>
    stripe.invoices.createPreview({ customer, subscription: sub.stripeSubscriptionId }),
  );
  return {
    invoice: {
      amount_due_cents: preview.amount_due,
      currency: preview.currency,
      period_start: fromUnix(preview.period_start),
      period_end: fromUnix(preview.period_end),
      next_payment_attempt: fromUnix(preview.next_payment_attempt),
      lines: preview.lines.data.map((l) => ({ description: l.description ?? '', amount_cents: l.amount })),
    },
  };
}

export async function billingContact(deps: Pick<Deps, 'db' | 'config'>, access: OrganizationAccess) {
  const found = await customerOf(deps, access);
  if (!found) return { contact: null };
  const { stripe, customer } = found;
  const record = await callStripe(() => stripe.customers.retrieve(customer));
  if ('deleted' in record && record.deleted) return { contact: null };
  const c = record as Stripe.Customer;
  const address = c.address ? { ...c.address } : null;
  return { contact: { name: c.name ?? null, email: c.email ?? null, address } };
}
