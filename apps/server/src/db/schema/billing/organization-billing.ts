import { bigint, boolean, index, integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { tstz } from '../columns.js';
import { featureTier, organizations } from '../identity/organizations.js';

/**
 * How an organization pays, and its Stripe customer and subscription's state: billing's, one row
 * per organization. Every organization has its row from the moment it is inserted: a trigger of
 * migration 0038 (`organizations_open_billing`) inserts it with these defaults, whoever inserts the
 * organization, and that migration copied every existing organization's state into it.
 */
export const organizationBilling = pgTable(
  'organization_billing',
  {
    organizationId: integer('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** How the organization pays: '' (no billing method), stripe (card), aws (marketplace), invoice. */
    billingMethod: varchar('billing_method', { length: 32 }).notNull().default(''),
    /** Dollars one credit costs, in millionths (50000: $0.05). */
    creditValueMicroUsd: bigint('credit_value_micro_usd', { mode: 'number' }).notNull().default(50_000),
    /** Whether reaching the spend limit stops running clusters (else only refuses new ones). */
    spendLimitShouldStopInstances: boolean('spend_limit_should_stop_instances').notNull().default(true),
    /** The organization's customer in Stripe, once it has checked out. */
    stripeCustomerId: varchar('stripe_customer_id', { length: 255 }),
    /** The Stripe subscription's status (active, trialing, past_due, canceled...); null without one. */
    subscriptionStatus: varchar('subscription_status', { length: 32 }),
    /** When a Pro trial ends. */
    trialExpiration: tstz('trial_expiration'),
    /** A scheduled plan change: the tier the organization moves to at cancelAt (or when staff approve). */
    nextPhaseTier: featureTier('next_phase_tier'),
    cancelAt: tstz('cancel_at'),
  },
  // Stripe's webhooks find the organization by its customer.
  (t) => [index('organization_billing_stripe_customer_idx').on(t.stripeCustomerId)],
);

export type OrganizationBilling = typeof organizationBilling.$inferSelect;
