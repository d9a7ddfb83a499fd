import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { adminPlan, memberPlan, ORG_ID } from '@/features/billing/test-fixtures';
import { openBilling, paymentRoutes } from '@/features/billing/test-pages';
import { externalNavigation } from '@/lib/navigation';
import { pickScope } from '@/lib/scopes';
import { reply } from '@/test/api-stub';

const CHECKOUT = `/api/v2/subscriptions/subscriptions/checkout-session/${ORG_ID}`;
const STRIPE_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
const EXISTS =
  'Acme Inc already has a Professional subscription (active). Continue to a new checkout? The new subscription replaces the current one once it is paid.';

// Each test renders the whole Billing page (and a Radix select, for staff): slow on a loaded machine.
describe('plan changes', { timeout: 20_000 }, () => {
  let leave: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    pickScope(null);
    leave = vi.spyOn(externalNavigation, 'leave').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it("goes to Stripe's checkout, confirming first when the organization already pays", async () => {
    let round = 0;
    const { api } = openBilling({
      role: 'admin',
      plan: adminPlan(),
      routes: {
        ...paymentRoutes,
        [`POST ${CHECKOUT}`]: () =>
          round++ === 0
            ? {
                status: 409,
                body: { detail: EXISTS, code: 'SUBSCRIPTION_EXISTS', actionRequired: 'confirm' },
              }
            : { body: { id: 'cs_test_1', url: STRIPE_URL } },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Professional' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(EXISTS);
    expect(leave).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith(STRIPE_URL));
    const calls = api.callsTo('POST', CHECKOUT);
    expect(calls.map((call) => call.query.get('confirm'))).toEqual(['false', 'true']);
    expect(calls[0]!.body).toEqual({ target_tier: 'professional' });
  });

  it('stays on the page when the confirmation is cancelled', async () => {
    const { api } = openBilling({
      role: 'admin',
      plan: adminPlan(),
      routes: {
        ...paymentRoutes,
        [`POST ${CHECKOUT}`]: reply(409, { detail: EXISTS, actionRequired: 'confirm' }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade to Professional' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('POST', CHECKOUT)).toHaveLength(1);
    expect(leave).not.toHaveBeenCalled();
    expect(screen.queryByText('Cancelled')).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Upgrade to Professional' })).toBeEnabled(),
    );
  });

  it("opens Stripe's billing portal for an organization paying by card", async () => {
    openBilling({
      role: 'admin',
      plan: adminPlan({ tier: 'professional', billing_method: 'stripe' }),
      routes: {
        ...paymentRoutes,
        [`POST /api/v2/subscriptions/subscriptions/billing-portal/${ORG_ID}`]: {
          url: 'https://billing.stripe.test/p/session/1',
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://billing.stripe.test/p/session/1'));
  });

  it('downgrades after a confirmation, and the answer replaces the plan shown', async () => {
    const pro = { tier: 'professional', billing_method: 'stripe', subscription_status: 'active' };
    const { api } = openBilling({
      role: 'admin',
      plan: adminPlan(pro),
      routes: {
        ...paymentRoutes,
        [`POST /api/v2/pricing/downgrade-to-free/${ORG_ID}`]: adminPlan({
          ...pro,
          next_phase_tier: 'free',
          cancel_at: '2030-08-01T00:00:00+00:00',
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Downgrade to Free' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Downgrade to Free?' });
    expect(dialog).toHaveTextContent(
      'Professional stays until the end of the period you paid for (August 1, 2030)',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Downgrade to Free' }));
    expect(await screen.findByText('Your organization moves to Free on August 1, 2030')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Plan' })).toHaveTextContent(
      'ScheduledMoves to Free on August 1, 2030',
    );
    expect(screen.queryByRole('button', { name: 'Downgrade to Free' })).toBeNull();
    expect(api.callsTo('POST', `/api/v2/pricing/downgrade-to-free/${ORG_ID}`)[0]!.body).toEqual({
      target_tier: 'free',
    });
    // Only the plan is read again from the answer; the page does not ask for it again.
    expect(api.callsTo('GET', `/api/v2/pricing/${ORG_ID}`)).toHaveLength(1);
  });

  it('asks for the Enterprise plan after a confirmation', async () => {
    openBilling({
      role: 'admin',
      plan: adminPlan(),
      routes: {
        ...paymentRoutes,
        [`POST /api/v2/pricing/upgrade-to-enterprise/${ORG_ID}`]: adminPlan({
          next_phase_tier: 'enterprise',
        }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Ask for Enterprise' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Ask for Enterprise' }),
    );
    expect(
      await screen.findByText('We received your request for the Enterprise plan and will be in touch'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Plan' })).toHaveTextContent('ScheduledEnterprise requested');
    expect(screen.queryByRole('button', { name: 'Upgrade to Professional' })).toBeNull();
  });

  it('lets staff edit the whole plan', async () => {
    const { api } = openBilling({
      isStaff: true,
      plan: memberPlan({ can_update_limits: true, can_update_staff: true, billing_method: 'invoice' }),
      routes: {
        ...paymentRoutes,
        [`PATCH /api/v2/pricing/update-staff/${ORG_ID}`]: memberPlan({
          can_update_limits: true,
          can_update_staff: true,
          tier: 'basic',
          node_limit: 4,
        }),
      },
    });
    const staff = await screen.findByRole('region', { name: 'Plan settings (staff)' });
    expect(screen.getByRole('button', { name: 'Move to Enterprise' })).toBeEnabled();
    fireEvent.change(within(staff).getByLabelText('Node limit'), { target: { value: '4' } });
    fireEvent.click(within(staff).getByRole('combobox', { name: 'Tier' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Basic' }));
    // The tier's gates: spot and ARM instances (empty: no limit), custom networking, billing period.
    fireEvent.change(within(staff).getByLabelText('Spot instances'), { target: { value: '3' } });
    fireEvent.change(within(staff).getByLabelText('ARM instances'), { target: { value: '' } });
    fireEvent.click(within(staff).getByRole('combobox', { name: 'Custom networking' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Allowed' }));
    fireEvent.change(within(staff).getByLabelText('Months per billing period'), { target: { value: '12' } });
    // The empty billing method is 'None' in the form and '' on the wire.
    fireEvent.click(within(staff).getByRole('combobox', { name: 'Billing method' }));
    fireEvent.click(await screen.findByRole('option', { name: 'None' }));
    fireEvent.click(within(staff).getByRole('button', { name: 'Save plan' }));
    expect(await screen.findByText('Plan saved')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/v2/pricing/update-staff/${ORG_ID}`)[0]!.body).toEqual({
      tier: 'basic',
      node_limit: 4,
      spot_usage_limit: 3,
      arm_usage_limit: null,
      can_use_custom_networking: true,
      billing_periods: 12,
      billing_method: '',
    });
    expect(screen.getByTestId('plan-tier')).toHaveTextContent('Basic');
  });
});
