import { useQuery } from '@tanstack/react-query';

import { subscriptionKeys } from '@/data/subscriptions/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** The next invoice of the paying subscription. Organization admins; empty when billing is not configured or there is no billing account. */
export type InvoicePreview = ApiData<'/api/v2/pricing/organization/{organization_id}/invoice-preview', 'get'>;

export const getInvoicePreview = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/organization/{organization_id}/invoice-preview', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function useInvoicePreviewQuery<TData = InvoicePreview>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<InvoicePreview, TData> = {},
) {
  return useQuery({
    queryKey: subscriptionKeys.invoicePreview(organizationId ?? 0),
    queryFn: ({ signal }) => getInvoicePreview(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
