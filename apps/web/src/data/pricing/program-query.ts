import { useQuery } from '@tanstack/react-query';

import { pricingKeys } from '@/data/pricing/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/**
 * An organization's plan (program) with its billing, and what the caller may change of it
 * (`canUpdateLimits`, `canChangePlan`, `canUpdateStaff`; `billingConfigured`: the server takes payments).
 */
export type Program = ApiData<'/api/v2/pricing/{organization_id}', 'get'>;
export type Tier = Program['tier'];

export const getProgram = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is known yet. */
export function useProgramQuery<TData = Program>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<Program, TData> = {},
) {
  return useQuery({
    queryKey: pricingKeys.program(organizationId ?? 0),
    queryFn: ({ signal }) => getProgram(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
