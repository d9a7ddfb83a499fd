import { Fact } from '@/components/fact';
import { StateChip } from '@/components/state-chip';
import type { Plan } from '@/data/pricing/plan-query';
import { BillingCard } from '@/features/billing/billing-card';
import { formatCount, formatCredits, formatDay, formatDollars } from '@/features/billing/format';
import { PlanActions } from '@/features/billing/plan-actions';
import { TIER_NAMES } from '@/features/billing/plans';

/** Stripe's subscription statuses, coloured as the console's states are. */
const SUBSCRIPTION_CHIP_STATES: Record<string, string> = {
  active: 'ready',
  trialing: 'ready',
  past_due: 'error',
  unpaid: 'error',
  canceled: 'stopped',
  incomplete_expired: 'stopped',
};

const limitText = (limit: number | null) => (limit === null ? 'No limit' : formatCount(limit));

/** What is scheduled: a downgrade at the period's end, or a requested Enterprise plan. */
function scheduled(plan: Plan): string | null {
  if (!plan.nextPhaseTier) return null;
  const next = TIER_NAMES[plan.nextPhaseTier];
  if (plan.cancelAt) return `Moves to ${next} on ${formatDay(plan.cancelAt)}`;
  return plan.nextPhaseTier === 'enterprise' ? 'Enterprise requested' : `Moves to ${next}`;
}

/** The plan: tier, subscription status, what it includes and its limits, and the plan changes. */
export function PlanCard({ plan }: { plan: Plan }) {
  const next = scheduled(plan);
  return (
    <BillingCard title="Plan">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-2xl font-semibold tracking-tight" data-testid="plan-tier">
          {TIER_NAMES[plan.tier]}
        </p>
        {plan.subscriptionStatus ? (
          <StateChip
            state={SUBSCRIPTION_CHIP_STATES[plan.subscriptionStatus] ?? plan.subscriptionStatus}
            label={`Subscription ${plan.subscriptionStatus.replace('_', ' ')}`}
          />
        ) : null}
      </div>
      <dl className="divide-y">
        <Fact label="Included">{formatCredits(plan.creditAllotment)} credits a month</Fact>
        <Fact label="Credits renew">{formatDay(plan.renewDate)}</Fact>
        {plan.subscriptionPeriodEnd ? (
          <Fact label="Subscription renews">{formatDay(plan.subscriptionPeriodEnd)}</Fact>
        ) : null}
        {plan.trialExpiration ? <Fact label="Trial ends">{formatDay(plan.trialExpiration)}</Fact> : null}
        {next ? <Fact label="Scheduled">{next}</Fact> : null}
        <Fact label="Credit value">{formatDollars(plan.cumulusCreditValue)} per credit</Fact>
        <Fact label="Members">{limitText(plan.memberLimit)}</Fact>
        <Fact label="Workspaces">{limitText(plan.workspaceLimit)}</Fact>
        <Fact label="Cores per member">{limitText(plan.coreLimitMembers)}</Fact>
        <Fact label="Nodes">{limitText(plan.nodeLimit)}</Fact>
        <Fact label="Spot instances">{limitText(plan.spotUsageLimit)}</Fact>
        <Fact label="ARM instances">{limitText(plan.armUsageLimit)}</Fact>
      </dl>
      <PlanActions plan={plan} />
    </BillingCard>
  );
}
