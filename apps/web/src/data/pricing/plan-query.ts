import { useQuery } from '@tanstack/react-query';

import { pricingKeys } from '@/data/pricing/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/**
 * An organization's plan with its billing, and what the caller may change of it
 * (`canUpdateLimits`, `canChangePlan`, `canUpdateStaff`; `billingConfigured`: the server takes payments).
 */
export type Plan = ApiData<'/api/v2/pricing/{organization_id}', 'get'>;
export type Tier = Plan['tier'];

export const getPlan = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function usePlanQuery<TData = Plan>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<Plan, TData> = {},
) {
  return useQuery({
    queryKey: pricingKeys.plan(organizationId ?? 0),
    queryFn: ({ signal }) => getPlan(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
