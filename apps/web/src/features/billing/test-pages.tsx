import { BillingPage } from '@/features/billing/BillingPage';
import {
  acmeScope,
  memberPlan,
  ORG_ID,
  planUsage,
  signedInAs,
  WORKSPACE_ID,
  workspaceUsage,
} from '@/features/billing/test-fixtures';
import type { SignedIn } from '@/lib/signed-in';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn, testUser } from '@/test/signed-in';

type Routes = Parameters<typeof stubApi>[0];

/** What an organization admin's Billing page reads of Stripe: a card, one paid invoice, a next invoice. */
export const paymentRoutes: Routes = {
  [`GET /api/v2/pricing/organization/${ORG_ID}/payment-method`]: {
    payment_method: { brand: 'visa', last4: '4242', exp_month: 3, exp_year: 2031 },
  },
  [`GET /api/v2/pricing/organization/${ORG_ID}/billing-contact`]: {
    contact: { name: 'Acme Inc', email: 'billing@acme.test', address: null },
  },
  [`GET /api/v2/pricing/organization/${ORG_ID}/invoice-preview`]: {
    invoice: {
      amount_due_cents: 4900,
      currency: 'usd',
      period_start: '2030-07-01T00:00:00+00:00',
      period_end: '2030-08-01T00:00:00+00:00',
      next_payment_attempt: '2030-08-01T00:00:00+00:00',
      lines: [{ description: 'Cumulus Professional', amount_cents: 4900 }],
    },
  },
  [`GET /api/v2/pricing/organization/${ORG_ID}/payment-history`]: {
    items: [
      {
        id: 'in_1',
        number: 'CUM-1',
        status: 'paid',
        amount_due_cents: 4900,
        amount_paid_cents: 4900,
        currency: 'usd',
        created: '2030-07-01T00:00:00+00:00',
        period_start: '2030-06-01T00:00:00+00:00',
        period_end: '2030-07-01T00:00:00+00:00',
        hosted_invoice_url: 'https://invoice.stripe.test/i/1',
      },
    ],
  },
  'GET /api/v2/pricing/billing-events/': {
    count: 1,
    items: [
      {
        id: 1,
        kind: 'plan',
        detail: 'ada moved the plan from Free to Professional.',
        organization_id: ORG_ID,
        organization: 'Acme Inc',
        account_id: null,
        account: null,
        user: 'ada',
        cluster_id: null,
        cluster: null,
        data: {},
        created: '2030-07-01T12:00:00+00:00',
      },
    ],
  },
};

/**
 * Opens /billing (or `url`) for a member or an admin of Acme Inc, with its workspace acme current;
 * `routes` add to or replace the plan, usage and Stripe answers.
 */
export function openBilling({
  url = '/billing',
  role = 'member',
  plan = memberPlan(),
  routes = {},
  isStaff = false,
  signedIn = signedInAs(role),
}: {
  url?: string;
  role?: 'admin' | 'member';
  plan?: unknown;
  routes?: Routes;
  isStaff?: boolean;
  signedIn?: Partial<SignedIn>;
} = {}) {
  const api = stubApi({
    'GET /api/v2/users/user/valid-scopes': [acmeScope],
    [`GET /api/v2/pricing/${ORG_ID}`]: plan,
    [`GET /api/v2/pricing/usage/${ORG_ID}`]: planUsage({ credit_allotment_usage_percent: 12.46 }),
    [`GET /api/v2/pricing/workspace/${WORKSPACE_ID}/usage`]: workspaceUsage(),
    ...routes,
  });
  if (isStaff) signedIn.user = testUser({ isStaff: true });
  const view = renderSignedIn(<BillingPage />, { url, signedIn });
  return { ...view, api };
}
