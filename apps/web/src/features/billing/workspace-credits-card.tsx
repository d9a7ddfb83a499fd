import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { WhyDisabled } from '@/components/why-disabled';
import { useWorkspaceUsageQuery } from '@/data/pricing/workspace-usage-query';
import { BillingCard } from '@/features/billing/billing-card';
import { formatCredits } from '@/features/billing/format';
import { UsageMeter } from '@/features/billing/usage-meter';
import { paths } from '@/lib/paths';
import { TOOLTIPS } from '@/lib/team/permissions';
import type { Workspace } from '@/lib/workspace';

const creditsOf = (value: number | null) => (value === null ? null : formatCredits(value));

/**
 * The current workspace's month: the caller's credits against their limit in it, the workspace's
 * against its limit. The limits are edited on the Team page, by the workspace's admins.
 */
export function WorkspaceCreditsCard({ workspace, canEdit }: { workspace: Workspace; canEdit: boolean }) {
  const usage = useWorkspaceUsageQuery({ workspaceId: workspace.id });
  return (
    <BillingCard
      title={`Workspace ${workspace.name}`}
      description="This month's credits in the workspace you are working in."
      actions={
        <WhyDisabled reason={canEdit ? null : TOOLTIPS.notWorkspaceAdmin(workspace.name)}>
          {canEdit ? (
            <Button asChild size="sm" variant="outline">
              <Link to={paths.team}>Edit limits on Team</Link>
            </Button>
          ) : (
            <Button size="sm" variant="outline" disabled>
              Edit limits on Team
            </Button>
          )}
        </WhyDisabled>
      }
    >
      {!usage.data ? (
        usage.error ? (
          <p className="text-muted-foreground text-sm">Could not load the workspace's usage.</p>
        ) : (
          <Skeleton className="h-16 w-full" aria-busy="true" />
        )
      ) : (
        <div className="grid gap-4">
          <UsageMeter
            label="Your credits"
            used={`${formatCredits(usage.data.creditsUsed)} credits`}
            limit={creditsOf(usage.data.creditLimit)}
            percent={usage.data.workspaceCreditsUserUsagePercent}
          />
          <UsageMeter
            label="Workspace credits"
            used={`${formatCredits(usage.data.workspaceCreditsUsed)} credits`}
            limit={creditsOf(usage.data.workspaceCreditLimit)}
            percent={usage.data.workspaceCreditsUsagePercent}
          />
        </div>
      )}
    </BillingCard>
  );
}
