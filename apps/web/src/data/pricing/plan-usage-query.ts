import { useQuery } from '@tanstack/react-query';

import { pricingKeys } from '@/data/pricing/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/**
 * This month's credits and spend of an organization against its plan, with the percentages. The wire
 * names a plan's fields program_* (programCreditsUsagePercent ...): the contract's names, kept.
 */
export type PlanUsage = ApiData<'/api/v2/pricing/usage/{organization_id}', 'get'>;

/** Usage percentages are polled every 10 s. */
export const USAGE_POLL_MS = 10_000;

export const getPlanUsage = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/usage/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** Polled every 10 s. `organizationId` null: none is known yet. */
export function usePlanUsageQuery<TData = PlanUsage>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<PlanUsage, TData> = {},
) {
  return useQuery({
    queryKey: pricingKeys.usage(organizationId ?? 0),
    queryFn: ({ signal }) => getPlanUsage(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    refetchInterval: USAGE_POLL_MS,
    ...options,
  });
}
