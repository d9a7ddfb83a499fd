import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, tstz } from '../columns.js';
import { featureTier, organizations } from '../identity/organizations.js';

/**
 * A plan is what an organization pays for: its tier and the limits that come with it. Exactly one is
 * active (ended is null) per organization; a plan change ends it and starts the next, so the
 * history stays. Null limits are no limit; money in millionths. The code says plan; the table keeps
 * its first name, programs (no migration), as the wire keeps program_* fields and active_program_id.
 */
export const plans = pgTable(
  'programs',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tier: featureTier('tier').notNull(),
    /** The most cores any member may run at once in a workspace (caps each member's core limit). */
    coreLimitMembers: integer('core_limit_members'),
    /** Members plus pending invites. */
    memberLimit: integer('member_limit'),
    /** Instances (schedulers and workers) running at once across the organization. */
    nodeLimit: integer('node_limit'),
    seatLimit: integer('seat_limit'),
    workspaceLimit: integer('workspace_limit'),
    /** Credits the plan includes each month. */
    creditAllotment: integer('credit_allotment').notNull().default(0),
    /** Monthly dollars (millionths) the organization may spend. */
    dollarsSpendLimitMicroUsd: bigint('dollars_spend_limit_micro_usd', { mode: 'number' }),
    /** Monthly credits the whole organization may use; 0 allows none. */
    organizationCreditLimit: integer('organization_credit_limit'),
    /** Spot instances running at once across the organization. */
    spotUsageLimit: integer('spot_usage_limit'),
    /** ARM (aarch64) instances running at once across the organization. */
    armUsageLimit: integer('arm_usage_limit'),
    /** Feature gates of the tier: clusters in networks of the customer's own, a private package index. */
    canUseCustomNetworking: boolean('can_use_custom_networking').notNull().default(false),
    canUsePrivatePypi: boolean('can_use_private_pypi').notNull().default(false),
    /** Months one billing period (one invoice) covers: 1 monthly, 12 yearly. Usage limits reset monthly. */
    billingPeriods: integer('billing_periods').notNull().default(1),
    started: tstz('started').notNull().defaultNow(),
    ended: tstz('ended'),
  },
  (t) => [uniqueIndex('programs_active_key').on(t.organizationId).where(sql`ended is null`)],
);

/** A Stripe subscription of an organization, as Stripe's webhooks last described it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    stripeSubscriptionId: varchar('stripe_subscription_id', { length: 255 }).notNull(),
    stripeCustomerId: varchar('stripe_customer_id', { length: 255 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    tier: featureTier('tier').notNull(),
    currentPeriodEnd: tstz('current_period_end'),
    cancelAt: tstz('cancel_at'),
    trialEnd: tstz('trial_end'),
    created: createdAt(),
    updated: tstz('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_stripe_key').on(t.stripeSubscriptionId),
    index('subscriptions_organization_idx').on(t.organizationId),
  ],
);

/**
 * What happened to an organization's billing: plan and limit changes, subscriptions and payments,
 * limits reached (with the cluster they stopped), staff notes. Append only.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: integer('account_id'),
    /** Who made it happen; null for Stripe and the limits loop. */
    userId: integer('user_id'),
    clusterId: integer('cluster_id'),
    kind: varchar('kind', { length: 32 }).notNull(),
    /** One readable sentence. */
    detail: text('detail').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created: createdAt(),
  },
  (t) => [
    index('billing_events_organization_created_idx').on(t.organizationId, t.created.desc().nullsFirst()),
    index('billing_events_cluster_idx').on(t.clusterId),
  ],
);

/** Stripe events already applied: a redelivered webhook changes nothing twice. */
export const stripeEvents = pgTable('stripe_events', {
  id: varchar('id', { length: 255 }).primaryKey(),
  type: varchar('type', { length: 128 }).notNull(),
  received: tstz('received').notNull().defaultNow(),
});

export type Plan = typeof plans.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
export type BillingEvent = typeof billingEvents.$inferSelect;
