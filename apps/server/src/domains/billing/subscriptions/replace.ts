import { and, eq, inArray, lt, ne } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client.js';
import { subscriptions } from '../../../db/schema/index.js';
import { callStripe } from './stripe.js';
import { PAYING } from './sync.js';

/**
 * Cancels in Stripe, at once (the unused time credited), every subscription of the organization
 * other than `keep` that still pays here, and answers them as Stripe now describes them. One
 * Stripe has ended already (a redelivered webhook) is answered as it is, not cancelled twice.
 */
export async function cancelReplaced(
  db: Db,
  stripe: Stripe,
  organizationId: number,
  keep: string,
): Promise<Stripe.Subscription[]> {
  // Only older ones: a late event about an old subscription must not cancel its replacement.
  const [mine] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, keep));
  const others = await db
    .select({ id: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.organizationId, organizationId),
        ne(subscriptions.stripeSubscriptionId, keep),
        inArray(subscriptions.status, [...PAYING]),
        mine ? lt(subscriptions.id, mine.id) : undefined,
      ),
    );
  const cancelled: Stripe.Subscription[] = [];
  for (const { id } of others) {
    const current = await callStripe(() => stripe.subscriptions.retrieve(id));
    cancelled.push(
      PAYING.has(current.status)
        ? await callStripe(() => stripe.subscriptions.cancel(id, { prorate: true }))
        : current,
    );
  }
  return cancelled;
}
