import { useQuery } from '@tanstack/react-query';

import { subscriptionKeys } from '@/data/subscriptions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** The organization's invoices, newest first, with their links. Organization admins; empty when billing is not configured or there is no billing account. */
export type PaymentHistory = ApiData<'/api/v2/pricing/organization/{organization_id}/payment-history', 'get'>;

export const getPaymentHistory = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/organization/{organization_id}/payment-history', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function usePaymentHistoryQuery<TData = PaymentHistory>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<PaymentHistory, TData> = {},
) {
  return useQuery({
    queryKey: subscriptionKeys.paymentHistory(organizationId ?? 0),
    queryFn: ({ signal }) => getPaymentHistory(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
