import { describe, expect, it } from 'vitest';

import { formatDay, formatPercent } from '@/features/billing/format';
import { USAGE_ALERT_LEVELS, type UsageAlertInput, usageAlerts } from '@/features/billing/usage-alerts';

const RENEW = '2030-08-01T00:00:00.000000+00:00';

function input(
  plan: Partial<NonNullable<UsageAlertInput['plan']>> = {},
  workspace: Partial<NonNullable<UsageAlertInput['workspace']>> = {},
  roles: Partial<Pick<UsageAlertInput, 'isOrganizationAdmin' | 'isWorkspaceAdmin'>> = {},
): UsageAlertInput {
  return {
    plan: {
      programCreditsUsagePercent: null,
      programDollarsSpendUsagePercent: null,
      billingMethod: '',
      renewDate: RENEW,
      ...plan,
    },
    workspace: { workspaceCreditsUserUsagePercent: null, workspaceCreditsUsagePercent: null, ...workspace },
    workspaceName: 'acme',
    isOrganizationAdmin: false,
    isWorkspaceAdmin: false,
    ...roles,
  };
}

const titles = (i: UsageAlertInput) => usageAlerts(i).map((alert) => alert.title);
const only = (i: UsageAlertInput) => {
  const alerts = usageAlerts(i);
  expect(alerts).toHaveLength(1);
  return alerts[0]!;
};

describe('usage alert rules', () => {
  it('uses the spec levels and shows percentages with one decimal', () => {
    expect(USAGE_ALERT_LEVELS).toEqual({ Low: 50, Medium: 75, High: 90, ReachedQuota: 100 });
    expect(formatPercent(92.456)).toBe('92.4%');
    expect(formatPercent(80.3)).toBe('80.3%');
    expect(formatPercent(100)).toBe('100.0%');
    // Short of a limit never reads as reached.
    expect(formatPercent(99.99)).toBe('99.9%');
    expect(only(input({ programCreditsUsagePercent: 99.99 }))).toMatchObject({ tone: 'warning' });
    expect(formatDay(RENEW)).toBe('August 1, 2030');
  });

  it('shows nothing without limits or below the thresholds', () => {
    expect(usageAlerts({ isOrganizationAdmin: true, isWorkspaceAdmin: true })).toEqual([]);
    expect(titles(input())).toEqual([]);
    expect(
      titles(
        input(
          { programCreditsUsagePercent: 89.99, programDollarsSpendUsagePercent: 74.99 },
          { workspaceCreditsUserUsagePercent: 89.9, workspaceCreditsUsagePercent: 50 },
        ),
      ),
    ).toEqual([]);
  });

  it("warns at 90% of the organization's credits and errs at 100%, telling admins and members what to do", () => {
    const warning = only(input({ programCreditsUsagePercent: 90 }));
    expect(warning).toMatchObject({ title: 'Monthly Plan', tone: 'warning', action: null });
    expect(warning.message).toBe(
      'Your organization is 90.0% through its monthly credits. Credits renew on August 1, 2030. Ask your organization admin to increase the limit or upgrade the plan.',
    );

    const admin = only(input({ programCreditsUsagePercent: 95.55 }, {}, { isOrganizationAdmin: true }));
    expect(admin.action).toBe('billing');
    expect(admin.message).toContain(`${(95.55).toFixed(1)}%`);
    expect(admin.message).toContain(
      'As an organization admin you can upgrade your plan on the Billing page.',
    );
    const withCard = only(
      input({ programCreditsUsagePercent: 95, billingMethod: 'stripe' }, {}, { isOrganizationAdmin: true }),
    );
    expect(withCard.message).toContain('you can increase the credit limit on the Billing page');

    const out = only(input({ programCreditsUsagePercent: 104.2 }));
    expect(out.tone).toBe('error');
    expect(out.message).toContain(
      'Your organization has run out of its monthly credits (104.2% used): running clusters will be stopped shortly.',
    );
  });

  it("warns about the member's own credit limit and the workspace's from 90%", () => {
    const mine = only(input({}, { workspaceCreditsUserUsagePercent: 91.25 }));
    expect(mine).toMatchObject({ title: 'Workspace User Monthly Limit', tone: 'warning', action: null });
    expect(mine.message).toBe(
      'You are 91.2% through your personal credit limit in acme: when it is reached your clusters will be stopped. The limit resets on the first of next month. Ask an admin of acme or your organization admin to raise it.',
    );
    const mineOut = only(input({}, { workspaceCreditsUserUsagePercent: 100 }, { isWorkspaceAdmin: true }));
    expect(mineOut).toMatchObject({ tone: 'error', action: 'team' });
    expect(mineOut.message).toContain('You have reached your personal credit limit in acme (100.0% used)');
    expect(mineOut.message).toContain('you can raise it on the Team page');

    const ws = only(input({}, { workspaceCreditsUsagePercent: 90 }));
    expect(ws).toMatchObject({ title: 'Workspace Monthly Limit', tone: 'warning' });
    expect(ws.message).toContain('at 100% its running clusters are stopped');
    const wsOut = only(input({}, { workspaceCreditsUsagePercent: 250 }));
    expect(wsOut.tone).toBe('error');
    expect(wsOut.message).toContain(
      'acme has reached its monthly credit limit (250.0% used): its running clusters are stopped',
    );
  });

  it('alerts on the spend limit at 75% and says it is reached at 100%, never both', () => {
    const alert = only(input({ programDollarsSpendUsagePercent: 75 }));
    expect(alert).toMatchObject({ title: 'Monthly spent limit alert', tone: 'warning', action: null });
    expect(alert.message).toBe(
      'A workspace admin set a monthly spend limit and 75.0% of it is spent. Once it is reached no new clusters can be created.',
    );
    const done = only(input({ programDollarsSpendUsagePercent: 100 }, {}, { isOrganizationAdmin: true }));
    expect(done).toMatchObject({ title: 'Monthly spent limit reached', tone: 'error', action: 'billing' });
    expect(done.message).toBe(
      'Your organization has reached its monthly spend limit (100.0% spent): no new clusters can be created and pending clusters will be stopped shortly. A workspace admin can update it on Billing.',
    );
  });

  it('lists every alert that applies, organization first', () => {
    expect(
      titles(
        input(
          { programCreditsUsagePercent: 100, programDollarsSpendUsagePercent: 80 },
          { workspaceCreditsUserUsagePercent: 100, workspaceCreditsUsagePercent: 100 },
        ),
      ),
    ).toEqual([
      'Monthly Plan',
      'Workspace User Monthly Limit',
      'Workspace Monthly Limit',
      'Monthly spent limit alert',
    ]);
  });
});
