import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { UsageBanners } from '@/app/shell/usage-banners';
import { USAGE_POLL_MS } from '@/data/pricing/plan-usage-query';
import {
  acmeScope,
  ORG_ID,
  planUsage,
  signedInAs,
  WORKSPACE_ID,
  workspaceUsage,
} from '@/features/billing/test-fixtures';
import { pickScope } from '@/lib/scopes';
import { reply, stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

function show(
  role: 'admin' | 'member',
  plan: Record<string, unknown>,
  workspace: Record<string, unknown> = {},
  { workspaceAdmin = false } = {},
) {
  const api = stubApi({
    'GET /api/v2/users/user/valid-scopes': [acmeScope],
    [`GET /api/v2/pricing/usage/${ORG_ID}`]: planUsage(plan),
    [`GET /api/v2/pricing/workspace/${WORKSPACE_ID}/usage`]: workspaceUsage(workspace),
  });
  const view = renderSignedIn(<UsageBanners />, { signedIn: signedInAs(role, { workspaceAdmin }) });
  return { ...view, api };
}

const banner = (title: string) => screen.findByRole('region', { name: title });
/** Lets answered calls render. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));
const banners = () => document.querySelectorAll('[data-slot=banner]');

describe('usage banners', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("tell a member the organization's credits are running out and to ask their admin", async () => {
    show('member', { program_credits_usage_percent: 92.34 });
    const plan = await banner('Monthly Plan');
    expect(plan).toHaveAttribute('data-tone', 'warning');
    expect(plan).toHaveTextContent(
      'Your organization is 92.3% through its monthly credits. Credits renew on August 1, 2030. Ask your organization admin to increase the limit or upgrade the plan.',
    );
    expect(within(plan).queryByRole('link')).toBeNull();
    expect(banners()).toHaveLength(1);
  });

  it('tell an admin at 100% that clusters stop, and link to the organization on Billing', async () => {
    show('admin', { program_credits_usage_percent: 100, billing_method: 'stripe' });
    const plan = await banner('Monthly Plan');
    expect(plan).toHaveAttribute('data-tone', 'error');
    expect(plan).toHaveTextContent('running clusters will be stopped shortly');
    expect(plan).toHaveTextContent('you can increase the credit limit on the Billing page');
    expect(within(plan).getByRole('link', { name: 'Billing' })).toHaveAttribute(
      'href',
      `/billing?account=${ORG_ID}`,
    );
  });

  it("show the workspace's and the member's own limits and the spend limit, with who can act", async () => {
    show(
      'member',
      { program_dollars_spend_usage_percent: 80 },
      { workspace_credits_user_usage_percent: 100, workspace_credits_usage_percent: 95 },
      { workspaceAdmin: true },
    );
    const mine = await banner('Workspace User Monthly Limit');
    expect(mine).toHaveAttribute('data-tone', 'error');
    expect(within(mine).getByRole('link', { name: 'Team' })).toHaveAttribute('href', '/team');
    expect(await banner('Workspace Monthly Limit')).toHaveTextContent('acme is 95.0% through');
    const spend = await banner('Monthly spent limit alert');
    expect(spend).toHaveTextContent('A workspace admin set a monthly spend limit and 80.0% of it is spent.');
  });

  it('say nothing below the thresholds', async () => {
    const { api } = show('admin', {
      program_credits_usage_percent: 89.9,
      program_dollars_spend_usage_percent: 74,
    });
    await vi.waitFor(() => expect(api.callsTo('GET', `/api/v2/pricing/usage/${ORG_ID}`)).toHaveLength(1));
    await settle();
    expect(banners()).toHaveLength(0);
  });

  it('say nothing when the usage cannot be read', async () => {
    const api = stubApi({
      'GET /api/v2/users/user/valid-scopes': [acmeScope],
      [`GET /api/v2/pricing/usage/${ORG_ID}`]: reply(500, { detail: 'boom' }),
    });
    renderSignedIn(<UsageBanners />, { signedIn: signedInAs('admin') });
    await vi.waitFor(() =>
      expect(api.callsTo('GET', `/api/v2/pricing/workspace/${WORKSPACE_ID}/usage`)).toHaveLength(1),
    );
    await settle();
    expect(banners()).toHaveLength(0);
  });

  it('read the usage again every 10 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = show('member', { program_credits_usage_percent: 50 });
    const calls = () => api.callsTo('GET', `/api/v2/pricing/usage/${ORG_ID}`).length;
    await vi.waitFor(() => expect(calls()).toBe(1));
    expect(USAGE_POLL_MS).toBe(10_000);
    await act(() => vi.advanceTimersByTimeAsync(USAGE_POLL_MS));
    await vi.waitFor(() => expect(calls()).toBe(2));
    expect(api.callsTo('GET', `/api/v2/pricing/workspace/${WORKSPACE_ID}/usage`).length).toBe(2);
  });
});
