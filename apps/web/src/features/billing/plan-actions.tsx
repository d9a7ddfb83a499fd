import { ArrowUpRightIcon, BuildingIcon, CreditCardIcon, LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { WhyDisabled } from '@/components/why-disabled';
import { useDowngradeMutation } from '@/data/pricing/downgrade-mutation';
import { useEnterpriseUpgradeMutation } from '@/data/pricing/enterprise-upgrade-mutation';
import type { Plan } from '@/data/pricing/plan-query';
import { useBillingPortalMutation } from '@/data/subscriptions/billing-portal-mutation';
import { createCheckoutSession } from '@/data/subscriptions/checkout-session-mutation';
import { formatDay } from '@/features/billing/format';
import { planChangeBlocked } from '@/features/billing/permissions';
import { TIER_NAMES, UPGRADABLE_TIERS } from '@/features/billing/plans';
import { ActionCancelledError, useActionRequiredMutation } from '@/lib/api/action-required';
import { serverMessage } from '@/lib/api/errors';
import { externalNavigation } from '@/lib/navigation';

function failed(error: unknown) {
  if (error instanceof ActionCancelledError) return;
  toast.error(serverMessage(error));
}

/** Upgrade (Stripe Checkout), billing portal, downgrade to Free and Enterprise, as the caller may. */
export function PlanActions({ plan }: { plan: Plan }) {
  const organizationId = plan.organizationId;
  const blocked = planChangeBlocked(plan);
  const [leaving, setLeaving] = React.useState(false);
  const [confirming, setConfirming] = React.useState<'downgrade' | 'enterprise' | null>(null);

  const checkout = useActionRequiredMutation({
    mutationFn: createCheckoutSession,
    onSuccess: ({ url }) => {
      setLeaving(true);
      externalNavigation.leave(url);
    },
    onError: failed,
  });
  const portal = useBillingPortalMutation({
    onSuccess: ({ url }) => {
      setLeaving(true);
      externalNavigation.leave(url);
    },
    onError: failed,
  });
  const downgrade = useDowngradeMutation({
    onSuccess: (answer) =>
      toast.success(
        answer.tier === 'free'
          ? 'Your organization is on the Free plan'
          : `Your organization moves to Free on ${formatDay(answer.cancelAt ?? answer.subscriptionPeriodEnd ?? answer.renewDate)}`,
      ),
    onError: failed,
  });
  const enterprise = useEnterpriseUpgradeMutation({
    onSuccess: (answer) =>
      toast.success(
        answer.tier === 'enterprise'
          ? 'The organization is on the Enterprise plan'
          : 'We received your request for the Enterprise plan and will be in touch',
      ),
    onError: failed,
  });

  const busy =
    leaving || checkout.isPending || portal.isPending || downgrade.isPending || enterprise.isPending;
  const upgradable =
    plan.billingConfigured && UPGRADABLE_TIERS.includes(plan.tier) && plan.nextPhaseTier !== 'enterprise';
  const canDowngrade = plan.tier !== 'free' && plan.nextPhaseTier !== 'free';
  const canAskEnterprise = plan.tier !== 'enterprise' && plan.nextPhaseTier !== 'enterprise';
  const hasPortal = plan.billingConfigured && plan.billingMethod === 'stripe' && plan.canUpdateLimits;

  return (
    <div className="flex flex-wrap gap-2">
      {upgradable ? (
        <WhyDisabled reason={blocked}>
          <Button
            size="sm"
            disabled={blocked !== null || busy}
            onClick={() => checkout.mutate({ organizationId })}
          >
            {checkout.isPending || (leaving && checkout.isSuccess) ? (
              <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
            ) : (
              <ArrowUpRightIcon aria-hidden="true" />
            )}
            Upgrade to Professional
          </Button>
        </WhyDisabled>
      ) : null}
      {hasPortal ? (
        <Button size="sm" variant="outline" disabled={busy} onClick={() => portal.mutate({ organizationId })}>
          <CreditCardIcon aria-hidden="true" />
          Manage billing
        </Button>
      ) : null}
      {canAskEnterprise ? (
        <WhyDisabled reason={blocked}>
          <Button
            size="sm"
            variant="outline"
            disabled={blocked !== null || busy}
            onClick={() => setConfirming('enterprise')}
          >
            <BuildingIcon aria-hidden="true" />
            {plan.canUpdateStaff ? 'Move to Enterprise' : 'Ask for Enterprise'}
          </Button>
        </WhyDisabled>
      ) : null}
      {canDowngrade ? (
        <WhyDisabled reason={blocked}>
          <Button
            size="sm"
            variant="ghost"
            disabled={blocked !== null || busy}
            onClick={() => setConfirming('downgrade')}
          >
            Downgrade to Free
          </Button>
        </WhyDisabled>
      ) : null}
      {checkout.dialog}
      <ConfirmDialog
        open={confirming === 'downgrade'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Downgrade to Free?"
        description={
          plan.billingMethod === 'stripe'
            ? `${TIER_NAMES[plan.tier]} stays until the end of the period you paid for (${formatDay(plan.subscriptionPeriodEnd ?? plan.renewDate)}); then the organization moves to Free, with its limits, and the card is no longer charged.`
            : "The organization moves to Free now, with the Free plan's limits on members, workspaces and cores."
        }
        confirmLabel="Downgrade to Free"
        onConfirm={() => downgrade.mutate({ organizationId })}
      />
      <ConfirmDialog
        open={confirming === 'enterprise'}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={plan.canUpdateStaff ? 'Move to Enterprise?' : 'Ask for the Enterprise plan?'}
        description={
          plan.canUpdateStaff
            ? 'The organization moves to Enterprise now: invoiced, without plan limits.'
            : 'We tell the Cumulus team, who will contact you to set up the Enterprise plan. Your plan stays as it is until then.'
        }
        confirmLabel={plan.canUpdateStaff ? 'Move to Enterprise' : 'Ask for Enterprise'}
        tone="default"
        onConfirm={() => enterprise.mutate({ organizationId })}
      />
    </div>
  );
}
