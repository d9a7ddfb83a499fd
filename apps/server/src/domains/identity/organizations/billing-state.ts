import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type Organization, organizations } from '../../../db/schema/index.js';

/** What billing keeps on an organization: how it pays, its Stripe customer and subscription's state. */
export type OrganizationBilling = Pick<
  Organization,
  | 'billingMethod'
  | 'creditValueMicroUsd'
  | 'spendLimitShouldStopInstances'
  | 'stripeCustomerId'
  | 'subscriptionStatus'
  | 'trialExpiration'
  | 'nextPhaseTier'
  | 'cancelAt'
>;

/** Changes the organization's billing (billing's writes to the organization go through here). */
export async function updateOrganizationBilling(
  tx: Db,
  organizationId: number,
  changes: Partial<OrganizationBilling>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await tx.update(organizations).set(changes).where(eq(organizations.id, organizationId));
}

/** The organization whose Stripe customer this is, if any. */
export async function organizationOfStripeCustomer(db: Db, customer: string): Promise<number | null> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.stripeCustomerId, customer));
  return org?.id ?? null;
}
