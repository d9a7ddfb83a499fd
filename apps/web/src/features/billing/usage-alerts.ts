import type { PlanUsage } from '@/data/pricing/plan-usage-query';
import type { WorkspaceUsage } from '@/data/pricing/workspace-usage-query';
import { formatDay, formatPercent } from '@/features/billing/format';

/** Usage alert levels, in percent. */
export const USAGE_ALERT_LEVELS = { Low: 50, Medium: 75, High: 90, ReachedQuota: 100 } as const;

export type UsageAlertId =
  | 'monthly-plan'
  | 'workspace-user-monthly-limit'
  | 'workspace-monthly-limit'
  | 'spend-limit-alert'
  | 'spend-limit-reached';

export type UsageAlert = {
  id: UsageAlertId;
  /** The spec's banner title. */
  title: string;
  /** Error at 100% or more, else warning. */
  tone: 'warning' | 'error';
  message: string;
  /** Where the reader can act on it: the Billing page (plan and spend) or the Team page (workspace limits). */
  action: 'billing' | 'team' | null;
};

export type UsageAlertInput = {
  plan?: Pick<
    PlanUsage,
    'programCreditsUsagePercent' | 'programDollarsSpendUsagePercent' | 'billingMethod' | 'renewDate'
  >;
  workspace?: Pick<WorkspaceUsage, 'workspaceCreditsUserUsagePercent' | 'workspaceCreditsUsagePercent'>;
  workspaceName?: string;
  /** An admin of the organization: may raise its limits or upgrade its plan. */
  isOrganizationAdmin: boolean;
  /** An admin of the workspace (or of its organization): may raise the workspace's limits. */
  isWorkspaceAdmin: boolean;
};

export const toneOf = (percent: number): UsageAlert['tone'] =>
  percent >= USAGE_ALERT_LEVELS.ReachedQuota ? 'error' : 'warning';

const reached = (percent: number | null | undefined, level: number): percent is number =>
  percent !== null && percent !== undefined && percent >= level;

function monthlyPlan(plan: NonNullable<UsageAlertInput['plan']>, isAdmin: boolean, percent: number) {
  const renews = formatDay(plan.renewDate);
  const state =
    percent >= USAGE_ALERT_LEVELS.ReachedQuota
      ? `Your organization has run out of its monthly credits (${formatPercent(percent)} used): running clusters will be stopped shortly. Credits renew on ${renews}.`
      : `Your organization is ${formatPercent(percent)} through its monthly credits. Credits renew on ${renews}.`;
  const next = !isAdmin
    ? 'Ask your organization admin to increase the limit or upgrade the plan.'
    : plan.billingMethod !== ''
      ? 'As an organization admin you can increase the credit limit on the Billing page.'
      : 'As an organization admin you can upgrade your plan on the Billing page.';
  return `${state} ${next}`;
}

/**
 * The usage banners, in the order they show: organization credits at 90%,
 * the member's own credit limit in the workspace at 90%, the workspace's credit limit at 90%, the
 * spend limit at 75% (alert) or 100% (reached). A null percentage (no limit) never alerts.
 */
export function usageAlerts({
  plan,
  workspace,
  workspaceName = 'this workspace',
  isOrganizationAdmin,
  isWorkspaceAdmin,
}: UsageAlertInput): UsageAlert[] {
  const alerts: UsageAlert[] = [];
  const { High, Medium, ReachedQuota } = USAGE_ALERT_LEVELS;

  const credits = plan?.programCreditsUsagePercent;
  if (plan && reached(credits, High))
    alerts.push({
      id: 'monthly-plan',
      title: 'Monthly Plan',
      tone: toneOf(credits),
      message: monthlyPlan(plan, isOrganizationAdmin, credits),
      action: isOrganizationAdmin ? 'billing' : null,
    });

  const raiseWorkspace = isWorkspaceAdmin
    ? 'As an admin of the workspace you can raise it on the Team page.'
    : `Ask an admin of ${workspaceName} or your organization admin to raise it.`;

  const workspaceAlert = (
    id: UsageAlertId,
    title: string,
    percent: number | null | undefined,
    state: (percent: string, reachedQuota: boolean) => string,
  ) => {
    if (!reached(percent, High)) return;
    alerts.push({
      id,
      title,
      tone: toneOf(percent),
      message: `${state(formatPercent(percent), percent >= ReachedQuota)} The limit resets on the first of next month. ${raiseWorkspace}`,
      action: isWorkspaceAdmin ? 'team' : null,
    });
  };
  workspaceAlert(
    'workspace-user-monthly-limit',
    'Workspace User Monthly Limit',
    workspace?.workspaceCreditsUserUsagePercent,
    (percent, full) =>
      full
        ? `You have reached your personal credit limit in ${workspaceName} (${percent} used): your clusters will be stopped.`
        : `You are ${percent} through your personal credit limit in ${workspaceName}: when it is reached your clusters will be stopped.`,
  );
  workspaceAlert(
    'workspace-monthly-limit',
    'Workspace Monthly Limit',
    workspace?.workspaceCreditsUsagePercent,
    (percent, full) =>
      full
        ? `${workspaceName} has reached its monthly credit limit (${percent} used): its running clusters are stopped and new ones cannot start.`
        : `${workspaceName} is ${percent} through its monthly credit limit: at 100% its running clusters are stopped.`,
  );

  // The spend banners: a workspace admin set the limit and updates it on Billing.
  const spend = plan?.programDollarsSpendUsagePercent;
  if (reached(spend, ReachedQuota))
    alerts.push({
      id: 'spend-limit-reached',
      title: 'Monthly spent limit reached',
      tone: 'error',
      message: `Your organization has reached its monthly spend limit (${formatPercent(spend)} spent): no new clusters can be created and pending clusters will be stopped shortly. A workspace admin can update it on Billing.`,
      action: isOrganizationAdmin ? 'billing' : null,
    });
  else if (reached(spend, Medium))
    alerts.push({
      id: 'spend-limit-alert',
      title: 'Monthly spent limit alert',
      tone: 'warning',
      message: `A workspace admin set a monthly spend limit and ${formatPercent(spend)} of it is spent. Once it is reached no new clusters can be created.`,
      action: isOrganizationAdmin ? 'billing' : null,
    });

  return alerts;
}
