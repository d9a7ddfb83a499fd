import { useQuery } from '@tanstack/react-query';

import { scopeKeys } from '@/data/scopes/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

type StaffOrganizations = ApiData<'/api/v2/users/organizations/staff-list-values', 'get'>;

/** Staff only: organizations whose name starts with the text, to scope a list to any of them. */
export const getStaffOrganizations = (startsWith: string, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/users/organizations/staff-list-values', {
      params: { query: { starts_with: startsWith, limit: 20 } },
      signal,
    }),
  );

/** Asks only once there is text to search for. */
export function useStaffOrganizationSearchQuery<TData = StaffOrganizations>(
  { startsWith }: { startsWith: string },
  { enabled = true, ...options }: QueryOptions<StaffOrganizations, TData> = {},
) {
  return useQuery({
    queryKey: scopeKeys.staffOrganizations(startsWith),
    queryFn: ({ signal }) => getStaffOrganizations(startsWith, signal),
    enabled: enabled && startsWith.length > 0,
    staleTime: 30_000,
    ...options,
  });
}
