import { useQuery } from '@tanstack/react-query';

import { subscriptionKeys } from '@/data/subscriptions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** Who receives the invoices. Organization admins; empty when billing is not configured or there is no billing account. */
export type BillingContact = ApiData<'/api/v2/pricing/organization/{organization_id}/billing-contact', 'get'>;

export const getBillingContact = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/organization/{organization_id}/billing-contact', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function useBillingContactQuery<TData = BillingContact>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<BillingContact, TData> = {},
) {
  return useQuery({
    queryKey: subscriptionKeys.billingContact(organizationId ?? 0),
    queryFn: ({ signal }) => getBillingContact(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
