import { Fact } from '@/components/fact';
import { StateChip } from '@/components/state-chip';
import type { Program } from '@/data/pricing/program-query';
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
function scheduled(program: Program): string | null {
  if (!program.nextPhaseTier) return null;
  const next = TIER_NAMES[program.nextPhaseTier];
  if (program.cancelAt) return `Moves to ${next} on ${formatDay(program.cancelAt)}`;
  return program.nextPhaseTier === 'enterprise' ? 'Enterprise requested' : `Moves to ${next}`;
}

/** The plan: tier, subscription status, what it includes and its limits, and the plan changes. */
export function PlanCard({ program }: { program: Program }) {
  const next = scheduled(program);
  return (
    <BillingCard title="Plan">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-2xl font-semibold tracking-tight" data-testid="plan-tier">
          {TIER_NAMES[program.tier]}
        </p>
        {program.subscriptionStatus ? (
          <StateChip
            state={SUBSCRIPTION_CHIP_STATES[program.subscriptionStatus] ?? program.subscriptionStatus}
            label={`Subscription ${program.subscriptionStatus.replace('_', ' ')}`}
          />
        ) : null}
      </div>
      <dl className="divide-y">
        <Fact label="Included">{formatCredits(program.creditAllotment)} credits a month</Fact>
        <Fact label="Credits renew">{formatDay(program.renewDate)}</Fact>
        {program.subscriptionPeriodEnd ? (
          <Fact label="Subscription renews">{formatDay(program.subscriptionPeriodEnd)}</Fact>
        ) : null}
        {program.trialExpiration ? (
          <Fact label="Trial ends">{formatDay(program.trialExpiration)}</Fact>
        ) : null}
        {next ? <Fact label="Scheduled">{next}</Fact> : null}
        <Fact label="Credit value">{formatDollars(program.cumulusCreditValue)} per credit</Fact>
        <Fact label="Members">{limitText(program.memberLimit)}</Fact>
        <Fact label="Workspaces">{limitText(program.workspaceLimit)}</Fact>
        <Fact label="Cores per member">{limitText(program.coreLimitMembers)}</Fact>
        <Fact label="Nodes">{limitText(program.nodeLimit)}</Fact>
        <Fact label="Spot instances">{limitText(program.spotUsageLimit)}</Fact>
        <Fact label="ARM instances">{limitText(program.armUsageLimit)}</Fact>
      </dl>
      <PlanActions program={program} />
    </BillingCard>
  );
}
