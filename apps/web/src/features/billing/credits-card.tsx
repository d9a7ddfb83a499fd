import { ErrorState } from '@/components/error-state';
import { Skeleton } from '@/components/ui/skeleton';
import { usePlanUsageQuery } from '@/data/pricing/plan-usage-query';
import { BillingCard } from '@/features/billing/billing-card';
import { formatCredits, formatDay, formatDollars } from '@/features/billing/format';
import { UsageMeter } from '@/features/billing/usage-meter';
import { errorMessage } from '@/lib/api/errors';

/** This month's credits against the allotment and the organization's credit limit, and the spend. */
export function CreditsCard({ organizationId }: { organizationId: number }) {
  const usage = usePlanUsageQuery({ organizationId });
  return (
    <BillingCard title="This month" description="Credits and spend since the first of the month (UTC).">
      {usage.error && !usage.data ? (
        <ErrorState
          title="Could not load this month's usage"
          message={errorMessage(usage.error)}
          onRetry={() => void usage.refetch()}
          retrying={usage.isFetching}
          className="py-6"
        />
      ) : !usage.data ? (
        <div className="grid gap-4" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      ) : (
        <div className="grid gap-4">
          <UsageMeter
            label="Credits used"
            used={`${formatCredits(usage.data.creditsUsed)} credits`}
            limit={
              usage.data.creditAllotment ? `${formatCredits(usage.data.creditAllotment)} included` : null
            }
            percent={usage.data.creditAllotmentUsagePercent}
          />
          <UsageMeter
            label="Organization credit limit"
            used={`${formatCredits(usage.data.creditsUsed)} credits`}
            limit={
              usage.data.organizationCreditLimit === null
                ? null
                : formatCredits(usage.data.organizationCreditLimit)
            }
            percent={usage.data.programCreditsUsagePercent}
          />
          <UsageMeter
            label="Spend"
            used={formatDollars(usage.data.dollarsSpent)}
            limit={
              usage.data.programDollarsSpendLimit === null
                ? null
                : formatDollars(usage.data.programDollarsSpendLimit)
            }
            percent={usage.data.programDollarsSpendUsagePercent}
          />
          <p className="text-muted-foreground text-xs">
            Credits and limits renew on {formatDay(usage.data.renewDate)}.
          </p>
        </div>
      )}
    </BillingCard>
  );
}
