import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { id, queryBool, text, z } from '../../../http/zod.js';
import { numericParam, organizationOf, organizationParams, workspaceOf } from '../../identity/index.js';
import { TIERS } from '../plans/tiers.js';
import * as billing from './service.js';
import { handleWebhook, verifyWebhook } from './webhook.js';

const tags = ['subscriptions'];
const user = { auth: 'user' } as const;
/** Admins of the path's organization. */
const orgAdmin = { auth: 'user', organization: 'admin' } as const;
type SubscriptionQuery = { organization_id?: number; workspace_slug?: string; workspace_id?: number };
const base = '/api/v2/subscriptions/subscriptions';

const subscriptionSchema = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  stripe_subscription_id: z.string(),
  status: z.string(),
  tier: z.enum(TIERS),
  current_period_end: z.string().nullable(),
  cancel_at: z.string().nullable(),
  trial_end: z.string().nullable(),
});
const link = z.object({ url: z.string() });
const paymentMethodAnswer = z.object({
  payment_method: z
    .object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() })
    .nullable(),
});
const paymentHistoryAnswer = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      number: z.string().nullable(),
      status: z.string().nullable(),
      amount_due_cents: z.number().int(),
      amount_paid_cents: z.number().int(),
      currency: z.string(),
      created: z.string().nullable(),
      period_start: z.string().nullable(),
      period_end: z.string().nullable(),
      hosted_invoice_url: z.string().nullable(),
    }),
  ),
});
const invoicePreviewAnswer = z.object({
  invoice: z
    .object({
      amount_due_cents: z.number().int(),
      currency: z.string(),
      period_start: z.string().nullable(),
      period_end: z.string().nullable(),
      next_payment_attempt: z.string().nullable(),
      lines: z.array(z.object({ description: z.string(), amount_cents: z.number().int() })),
    })
    .nullable(),
});
const billingContactAnswer = z.object({
  contact: z
    .object({
      name: z.string().nullable(),
      email: z.string().nullable(),
      address: z.record(z.string(), z.string().nullable()).nullable(),
    })
    .nullable(),
});
const adminsRead =
  'Organization admins; empty when billing is not configured or the organization has no billing account.';

export function registerSubscriptionRoutes(app: App, deps: Deps): void {
  app.get(
    `${base}/active-subscription`,
    {
      config: {
        ...user,
        // The organization named, else the one of the workspace named: resolved once.
        workspace: { key: (request) => billing.subscriptionWorkspace(request.query as SubscriptionQuery) },
        organization: { key: (request) => (request.query as SubscriptionQuery).organization_id ?? null },
      },
      schema: {
        tags,
        description:
          "The organization's paying subscription (by organization or one of its workspaces), or null.",
        querystring: z.object({
          organization_id: id.optional(),
          workspace_slug: text(64).min(1).optional(),
          workspace_id: id.optional(),
        }),
        response: { 200: subscriptionSchema.nullable() },
      },
    },
    async (request) =>
      billing.activeSubscription(
        deps,
        request.query.organization_id !== undefined
          ? organizationOf(request).organization.id
          : workspaceOf(request).organization.id,
      ),
  );

  app.get(
    `${base}/subscription/:subscription_id`,
    {
      config: {
        ...user,
        organization: {
          key: async (request) =>
            (await billing.findSubscription(deps, numericParam(request, 'subscription_id'))).organizationId,
        },
      },
      schema: { tags, params: z.object({ subscription_id: id }), response: { 200: subscriptionSchema } },
    },
    async (request) =>
      billing.subscriptionById(deps, organizationOf(request), request.params.subscription_id),
  );

  app.post(
    `${base}/checkout-session/:organization_id`,
    {
      config: orgAdmin,
      schema: {
        tags,
        description:
          'A Stripe Checkout for the Professional plan (organization admins). An organization already paying by card gets a 409 with actionRequired confirm; repeat with confirm=true.',
        params: organizationParams,
        querystring: z.object({ confirm: queryBool.default(false) }),
        body: z
          .object({ target_tier: z.enum(TIERS).default('professional') })
          .default({ target_tier: 'professional' }),
        response: { 200: link.extend({ id: z.string() }) },
      },
    },
    async (request) =>
      billing.checkoutSession(deps, organizationOf(request), request.body, request.query.confirm),
  );

  app.post(
    `${base}/billing-portal/:organization_id`,
    { config: orgAdmin, schema: { tags, params: organizationParams, response: { 200: link } } },
    async (request) => billing.billingPortal(deps, organizationOf(request)),
  );

  // What organization admins (and staff) read of the organization's Stripe customer.
  const adminRead = (
    path: string,
    answer: z.ZodType,
    read: (d: Deps, access: ReturnType<typeof organizationOf>) => Promise<unknown>,
  ) =>
    app.get(
      `/api/v2/pricing/organization/:organization_id/${path}`,
      {
        config: { ...user, organization: { need: 'admin', orStaff: true } },
        schema: { tags, description: adminsRead, params: organizationParams, response: { 200: answer } },
      },
      async (request) => read(deps, organizationOf(request)),
    );
  adminRead('payment-method', paymentMethodAnswer, billing.paymentMethod);
  adminRead('payment-history', paymentHistoryAnswer, billing.paymentHistory);
  adminRead('invoice-preview', invoicePreviewAnswer, billing.invoicePreview);
  adminRead('billing-contact', billingContactAnswer, billing.billingContact);

  // Stripe signs the exact bytes it sends: this route reads its body raw.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    scope.post(
      '/api/v2/subscriptions/webhooks/stripe',
      {
        config: { auth: 'none' },
        schema: {
          tags,
          description:
            "Stripe's webhook: the Stripe-Signature header is verified over the raw body (300 s tolerance); a bad one is a 400 and changes nothing.",
          response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }) },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const event = verifyWebhook(deps, raw, typeof signature === 'string' ? signature : undefined);
        return handleWebhook(deps, event);
      },
    );
  });
}
