import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

type Query = { search: string; offset: number; limit: number };
export type StaffOrganizations = ApiData<'/api/v2/users/organizations/staff-list', 'get'>;
export type StaffOrganization = StaffOrganizations['items'][number];

/** Every organization on the server, found by part of its name, a page at a time. */
export const getStaffOrganizations = ({ search, ...page }: Query, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/users/organizations/staff-list', {
      params: { query: { ...page, search: search || undefined } },
      signal,
    }),
  );

export function useStaffOrganizationsQuery<TData = StaffOrganizations>(
  query: Query,
  options: QueryOptions<StaffOrganizations, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.organizations(query),
    queryFn: ({ signal }) => getStaffOrganizations(query, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}
