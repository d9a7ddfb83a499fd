import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type StaffUsersQuery = NonNullable<paths['/api/v2/staff/users']['get']['parameters']['query']>;
export type StaffUsers = ApiData<'/api/v2/staff/users', 'get'>;
export type StaffUser = StaffUsers['items'][number];

/** Staff only: every user, newest first, found by part of a username, email or full name. */
export const getStaffUsers = (query: StaffUsersQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/staff/users', { params: { query }, signal }));

export function useStaffUsersQuery<TData = StaffUsers>(
  query: StaffUsersQuery,
  options: QueryOptions<StaffUsers, TData> = {},
) {
  return useQuery({
    queryKey: staffKeys.userList(query),
    queryFn: ({ signal }) => getStaffUsers(query, signal),
    placeholderData: keepPreviousData,
    ...options,
  });
}
