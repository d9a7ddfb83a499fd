import { api, call } from '@/lib/api/client';

/**
 * A Stripe Checkout for the Professional plan; the answer's `url` is where the browser goes. An
 * organization already paying by card is answered 409 `actionRequired: 'confirm'`: use it through
 * `useActionRequiredMutation`, which repeats it with `confirm` true.
 */
export const createCheckoutSession = ({ organizationId }: { organizationId: number }, confirm = false) =>
  call(
    api.POST('/api/v2/subscriptions/subscriptions/checkout-session/{organization_id}', {
      params: { path: { organization_id: organizationId }, query: { confirm } },
      body: { target_tier: 'professional' },
    }),
  );
