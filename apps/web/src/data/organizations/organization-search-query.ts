import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type OrganizationSearch = ApiData<'/api/v2/users/organizations/', 'get'>;
export type OrganizationSummary = OrganizationSearch['items'][number];
type Variables = { search: string; staff: boolean };

/** Organizations matching the text: the user's own, or (staff) every organization on the server. */
export function searchOrganizations({ search, staff }: Variables, signal?: AbortSignal) {
  const query = { search: search || undefined, limit: 50 };
  return staff
    ? call(api.GET('/api/v2/users/organizations/staff-list', { params: { query }, signal }))
    : call(api.GET('/api/v2/users/organizations/', { params: { query }, signal }));
}

/** The previous answer stays shown while the next text is searched. */
export function useOrganizationSearchQuery<TData = OrganizationSearch>(
  variables: Variables,
  options: QueryOptions<OrganizationSearch, TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.search(variables.search, variables.staff),
    queryFn: ({ signal }) => searchOrganizations(variables, signal),
    placeholderData: (previous) => previous,
    ...options,
  });
}
