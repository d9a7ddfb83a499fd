import { useQuery } from '@tanstack/react-query';

import { subscriptionKeys } from '@/data/subscriptions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** The card on file (brand, last 4 digits, expiry). Organization admins; empty when billing is not configured or there is no billing account. */
export type PaymentMethod = ApiData<'/api/v2/pricing/organization/{organization_id}/payment-method', 'get'>;

export const getPaymentMethod = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/organization/{organization_id}/payment-method', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function usePaymentMethodQuery<TData = PaymentMethod>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<PaymentMethod, TData> = {},
) {
  return useQuery({
    queryKey: subscriptionKeys.paymentMethod(organizationId ?? 0),
    queryFn: ({ signal }) => getPaymentMethod(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
