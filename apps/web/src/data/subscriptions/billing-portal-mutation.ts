import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** A Stripe billing portal session (card, contact, invoices); the answer's `url` is where the browser goes. */
export const createBillingPortal = ({ organizationId }: { organizationId: number }) =>
  call(
    api.POST('/api/v2/subscriptions/subscriptions/billing-portal/{organization_id}', {
      params: { path: { organization_id: organizationId } },
    }),
  );

export function useBillingPortalMutation(options?: MutationOptions<typeof createBillingPortal>) {
  return useApiMutation(createBillingPortal, options);
}
