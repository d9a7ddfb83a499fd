import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { NOT_CONFIGURED } from '@/features/billing/BillingPage';
import { adminPlan, memberPlan, ORG_ID, signedInAs } from '@/features/billing/test-fixtures';
import { openBilling, paymentRoutes } from '@/features/billing/test-pages';
import { pickScope } from '@/lib/scopes';
import { readStored, STORAGE_KEYS } from '@/lib/storage';
import { TEAM_MESSAGES } from '@/lib/team/messages';
import { reply } from '@/test/api-stub';

const reasonOf = (element: HTMLElement) =>
  element.closest('[data-disabled-reason]')?.getAttribute('data-disabled-reason');

const card = (name: string) => screen.getByRole('region', { name });

// Each test renders the whole Billing page: slow on a loaded machine.
describe('BillingPage', { timeout: 20_000 }, () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it("shows a member the current scope's plan, this month's credits and why they cannot change them", async () => {
    const { api } = openBilling();
    expect(document.querySelector('[aria-busy=true]')).not.toBeNull();
    expect(await screen.findByTestId('plan-tier')).toHaveTextContent('Free');
    expect(screen.getByRole('heading', { name: 'Billing', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Plan, credits and payment of Acme Inc.')).toBeInTheDocument();
    const plan = card('Plan');
    expect(plan).toHaveTextContent('10,000 credits a month');
    expect(plan).toHaveTextContent('Credits renewAugust 1, 2030');
    // Without a subscription there is no subscription renewal.
    expect(plan).not.toHaveTextContent('Subscription renews');
    expect(plan).toHaveTextContent('Members50');
    expect(plan).toHaveTextContent('NodesNo limit');

    const month = card('This month');
    const credits = await within(month).findByRole('meter', { name: 'Credits used' });
    expect(credits).toHaveAttribute('aria-valuetext', '12.4%');
    expect(month).toHaveTextContent('1,234.5 credits of 10,000 included12.4%');
    expect(month).toHaveTextContent('$61.73 · no limit');

    const upgrade = screen.getByRole('button', { name: 'Upgrade to Professional' });
    expect(upgrade).toBeDisabled();
    expect(reasonOf(upgrade)).toBe(TEAM_MESSAGES.contactAdmin);
    const limit = screen.getByLabelText('Organization credit limit');
    expect(limit).toBeDisabled();
    expect(reasonOf(limit)).toBe(TEAM_MESSAGES.contactAdmin);
    expect(screen.queryByRole('button', { name: 'Save limits' })).toBeNull();

    const workspace = card('Workspace acme');
    expect(await within(workspace).findByRole('meter', { name: 'Your credits' })).toHaveAttribute(
      'aria-valuetext',
      '40.0%',
    );
    const team = within(workspace).getByRole('button', { name: 'Edit limits on Team' });
    expect(reasonOf(team)).toBe('You are not an admin of acme');

    // Payments and billing events are for admins: a member's page does not ask.
    expect(screen.queryByRole('region', { name: 'Invoices' })).toBeNull();
    expect(
      api.calls.some((call) => call.path.includes('payment') || call.path.includes('billing-events')),
    ).toBe(false);
  });

  it('tells everyone but staff to contact us about an Enterprise plan', async () => {
    openBilling({ plan: memberPlan({ tier: 'enterprise', credit_allotment: 0, billing_method: 'invoice' }) });
    expect(await screen.findByTestId('plan-tier')).toHaveTextContent('Enterprise');
    expect(screen.queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
    expect(reasonOf(screen.getByRole('button', { name: 'Downgrade to Free' }))).toBe(
      TEAM_MESSAGES.contactEnterprise,
    );
    expect(reasonOf(screen.getByLabelText('Monthly spend limit (USD)'))).toBe(
      TEAM_MESSAGES.contactEnterprise,
    );
  });

  it('says billing is not configured instead of offering payment, and the limits still save', async () => {
    const { api } = openBilling({
      role: 'admin',
      plan: adminPlan({ billing_configured: false }),
      routes: {
        ...paymentRoutes,
        [`PATCH /api/v2/pricing/update/${ORG_ID}`]: adminPlan({
          billing_configured: false,
          program_dollars_spend_limit: 25.5,
        }),
      },
    });
    expect(await screen.findByRole('region', { name: NOT_CONFIGURED.title })).toHaveTextContent(
      'Credit and spend limits still apply',
    );
    expect(screen.queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Payment method' })).toBeNull();
    expect(api.calls.some((call) => call.path.includes('payment-'))).toBe(false);
    // Admins still see the events of their organization.
    expect(await screen.findByText('ada moved the plan from Free to Professional.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Monthly spend limit (USD)'), { target: { value: '25.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/v2/pricing/update/${ORG_ID}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/v2/pricing/update/${ORG_ID}`)[0]!.body).toEqual({
      program_dollars_spend_limit: 25.5,
    });
    expect(await screen.findByText('Limits saved')).toBeInTheDocument();
    expect(screen.getByLabelText('Monthly spend limit (USD)')).toHaveValue('25.5');
  });

  it("puts the server's refusal on the field, and checks the form's own rules first", async () => {
    const message =
      'Add a payment method (upgrade to Professional) to raise the credit limit above the 10000 credits your plan includes.';
    const { api } = openBilling({
      role: 'admin',
      plan: adminPlan(),
      routes: {
        ...paymentRoutes,
        [`PATCH /api/v2/pricing/update/${ORG_ID}`]: reply(400, { organization_credit_limit: [message] }),
      },
    });
    const field = await screen.findByLabelText('Organization credit limit');
    fireEvent.change(field, { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(
      await screen.findByText('The credit limit must be a number from 0, or empty for no limit'),
    ).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/v2/pricing/update/${ORG_ID}`)).toHaveLength(0);

    fireEvent.change(field, { target: { value: '20000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/v2/pricing/update/${ORG_ID}`)[0]!.body).toEqual({
      organization_credit_limit: 20000,
    });
  });

  it("shows an admin the card, the next invoice, the invoices with their links and the organization's events", async () => {
    openBilling({
      role: 'admin',
      plan: adminPlan({
        tier: 'professional',
        billing_method: 'stripe',
        subscription_status: 'past_due',
        subscription_period_end: '2030-07-19T08:00:00.000000+00:00',
      }),
      routes: paymentRoutes,
    });
    expect(await screen.findByTestId('plan-tier')).toHaveTextContent('Professional');
    // Credits renew on the 1st; the card is charged when Stripe's period ends, shown apart.
    expect(card('Plan')).toHaveTextContent('Credits renewAugust 1, 2030Subscription renewsJuly 19, 2030');
    expect(screen.getByText('Subscription past due')).toBeInTheDocument();
    expect(await within(card('Payment method')).findByText('visa •••• 4242')).toBeInTheDocument();
    expect(card('Payment method')).toHaveTextContent('Expires 03/2031');
    expect(card('Payment method')).toHaveTextContent('Invoices go to Acme Inc, billing@acme.test.');
    await waitFor(() =>
      expect(card('Next invoice')).toHaveTextContent('$49.00 on August 1, 2030Cumulus Professional$49.00'),
    );
    const invoice = (await screen.findByRole('cell', { name: 'CUM-1' })).closest('tr') as HTMLElement;
    expect(invoice).toHaveTextContent('July 1, 2030$49.00paid');
    expect(within(invoice).getByRole('link', { name: /View/ })).toHaveAttribute(
      'href',
      'https://invoice.stripe.test/i/1',
    );
    expect(await screen.findByText('ada moved the plan from Free to Professional.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
  });

  it('says when an admin has no card, no invoice and no events yet', async () => {
    openBilling({
      role: 'admin',
      plan: adminPlan(),
      routes: {
        [`GET /api/v2/pricing/organization/${ORG_ID}/payment-method`]: { payment_method: null },
        [`GET /api/v2/pricing/organization/${ORG_ID}/billing-contact`]: { contact: null },
        [`GET /api/v2/pricing/organization/${ORG_ID}/invoice-preview`]: { invoice: null },
        [`GET /api/v2/pricing/organization/${ORG_ID}/payment-history`]: { items: [] },
        'GET /api/v2/pricing/billing-events/': { count: 0, items: [] },
      },
    });
    expect(await screen.findByText('No payment method on file. Upgrading adds one.')).toBeInTheDocument();
    expect(await screen.findByText(/No upcoming invoice/)).toBeInTheDocument();
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
    expect(await screen.findByText('No billing events yet')).toBeInTheDocument();
  });

  it('shows an error with a retry when the plan cannot be read', async () => {
    const { api } = openBilling({ plan: reply(500, { detail: 'boom' }) });
    expect(await screen.findByText('Could not load the plan')).toBeInTheDocument();
    expect(screen.getByText('An unknown error occurred')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.callsTo('GET', `/api/v2/pricing/${ORG_ID}`)).toHaveLength(2));
  });

  it('shows the organization the account parameter names, by id or workspace slug, and says when none matches', async () => {
    const bySlug = openBilling({ url: '/billing?account=acme' });
    expect(await screen.findByTestId('plan-tier')).toBeInTheDocument();
    expect(bySlug.api.callsTo('GET', `/api/v2/pricing/${ORG_ID}`)).toHaveLength(1);
    bySlug.unmount();
    vi.restoreAllMocks();

    const { api } = openBilling({ url: '/billing?account=nope' });
    expect(await screen.findByText('Account named nope not found')).toBeInTheDocument();
    expect(api.calls.some((call) => call.path.startsWith('/api/v2/pricing/'))).toBe(false);
  });

  it("does not take an organization's id for a workspace with the same id", async () => {
    window.localStorage.clear();
    const signedIn = signedInAs('member');
    const [acme] = signedIn.workspaceMemberships!;
    const labs = {
      ...acme!,
      id: 71,
      isDefaultAccount: false,
      account: {
        ...acme!.account,
        id: ORG_ID,
        slug: 'labs',
        name: 'labs',
        organization: { id: 4, name: 'Labs', isPersonal: false },
      },
    };
    openBilling({
      url: `/billing?account=${ORG_ID}`,
      signedIn: { ...signedIn, workspaceMemberships: [acme!, labs] },
    });
    expect(await screen.findByTestId('plan-tier')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Workspace acme' })).toBeInTheDocument();
    expect(readStored(STORAGE_KEYS.selectedAccount)).not.toBe('labs');
  });

  it("notes Stripe's return from checkout until dismissed", async () => {
    const { router } = openBilling({ url: `/billing?account=${ORG_ID}&checkout=cancelled` });
    const notice = await screen.findByRole('region', { name: 'Checkout cancelled' });
    expect(notice).toHaveTextContent('Nothing was charged and your plan is unchanged.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?account=${ORG_ID}`));
    expect(screen.queryByRole('region', { name: 'Checkout cancelled' })).toBeNull();
  });

  it('says a successful checkout is being confirmed, then that the plan applies', async () => {
    openBilling({
      url: `/billing?account=${ORG_ID}&checkout=success`,
      plan: memberPlan({ tier: 'professional', billing_method: 'stripe' }),
    });
    expect(
      await screen.findByRole('region', { name: 'Thank you: you are on the Professional plan' }),
    ).toBeInTheDocument();
  });
});
