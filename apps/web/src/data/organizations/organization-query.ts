import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** An organization with its plan, limits and what of them is used. */
export type Organization = ApiData<'/api/v2/users/organizations/details/{organization_id}', 'get'>;

export const getOrganization = (organizationId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/users/organizations/details/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      signal,
    }),
  );

/** `organizationId` null: none is chosen yet. */
export function useOrganizationQuery<TData = Organization>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<Organization, TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.details(organizationId ?? 0),
    queryFn: ({ signal }) => getOrganization(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
