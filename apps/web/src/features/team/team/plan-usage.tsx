import type { Organization } from '@/data/organizations/organization-query';
import { formatNumber } from '@/features/team/team/format';
import { cn } from '@/lib/utils';

function Usage({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const full = limit !== null && used >= limit;
  return (
    <span className="flex items-center gap-1.5">
      <span className="text-muted-foreground">{label}</span>
      <span className={cn('font-medium tabular-nums', full && 'text-warning')}>
        {formatNumber(used)}
        {limit === null ? null : (
          <span className="text-muted-foreground font-normal"> / {formatNumber(limit)}</span>
        )}
      </span>
    </span>
  );
}

/** The plan and what its limits count: seats (members and pending invites) and workspaces. */
export function PlanUsage({ organization }: { organization: Organization }) {
  return (
    <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="plan-usage">
      <span className="bg-muted text-muted-foreground rounded-md border px-2 py-0.5 text-xs font-medium capitalize">
        {organization.featureTier} plan
      </span>
      <Usage
        label="Seats"
        used={organization.memberCount + organization.pendingInviteCount}
        limit={organization.memberLimit}
      />
      <Usage label="Workspaces" used={organization.workspaceCount} limit={organization.workspaceLimit} />
    </p>
  );
}
