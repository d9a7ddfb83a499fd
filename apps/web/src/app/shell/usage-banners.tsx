import { Link } from 'react-router';

import { Banner } from '@/components/banner';
import { Button } from '@/components/ui/button';
import { usePlanUsageQuery } from '@/data/pricing/plan-usage-query';
import { useWorkspaceUsageQuery } from '@/data/pricing/workspace-usage-query';
import { useCurrentBillingScope, useIsOrganizationAdmin } from '@/features/billing/current-billing-scope';
import { billingLink } from '@/features/billing/links';
import { usageAlerts } from '@/features/billing/usage-alerts';
import { paths } from '@/lib/paths';

/**
 * The usage banners of the current scope's organization and workspace,
 * from their usage percentages polled every 10 s. A failed read shows no banner.
 */
export function UsageBanners() {
  const { workspace, organizationId } = useCurrentBillingScope();
  const plan = usePlanUsageQuery({ organizationId });
  const usage = useWorkspaceUsageQuery({ workspaceId: workspace?.id ?? null });
  const isOrganizationAdmin = useIsOrganizationAdmin(organizationId);
  const adminsWorkspaceOrganization = useIsOrganizationAdmin(workspace?.organization.id ?? null);
  const alerts = usageAlerts({
    plan: plan.data,
    workspace: usage.data,
    workspaceName: workspace?.name,
    isOrganizationAdmin,
    isWorkspaceAdmin: Boolean(workspace?.isAdmin) || adminsWorkspaceOrganization,
  });
  return alerts.map((alert) => (
    <Banner
      key={alert.id}
      tone={alert.tone}
      title={alert.title}
      action={
        alert.action ? (
          <Button asChild size="sm" variant="outline">
            {alert.action === 'billing' ? (
              <Link to={billingLink(organizationId)}>Billing</Link>
            ) : (
              <Link to={paths.team}>Team</Link>
            )}
          </Button>
        ) : null
      }
    >
      {alert.message}
    </Banner>
  ));
}
