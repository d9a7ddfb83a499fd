import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { pricingKeys } from '@/data/pricing/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** Plan changes, limit changes, payments and limits reached; organization admins (and staff) only. */
export type BillingEvents = ApiData<'/api/v2/pricing/billing-events/', 'get'>;
export type BillingEvent = BillingEvents['items'][number];
export type BillingEventsQuery = { offset: number; limit: number };

export const getBillingEvents = (
  organizationId: number,
  { offset, limit }: BillingEventsQuery,
  signal?: AbortSignal,
) =>
  call(
    api.GET('/api/v2/pricing/billing-events/', {
      params: { query: { organization_id: organizationId, offset, limit } },
      signal,
    }),
  );

/** One page of the organization's billing events, newest first; the last page stays shown while the next loads. */
export function useBillingEventsQuery<TData = BillingEvents>(
  { organizationId, query }: { organizationId: number | null; query: BillingEventsQuery },
  { enabled = true, ...options }: QueryOptions<BillingEvents, TData> = {},
) {
  return useQuery({
    queryKey: pricingKeys.events(organizationId ?? 0, query),
    queryFn: ({ signal }) => getBillingEvents(organizationId ?? 0, query, signal),
    enabled: enabled && organizationId !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
