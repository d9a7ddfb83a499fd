import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type CurrentUser = ApiData<'/api/v2/user/me', 'get'>;
/** A workspace the user belongs to: `account` {id, slug, name...}, isAdmin, isDefaultAccount. */
export type WorkspaceMembership = ApiData<'/api/v2/user/me/memberships', 'get'>[number];
export type OrganizationMembership = ApiData<'/api/v2/users/user/organization/memberships', 'get'>[number];

export const userKeys = {
  all: ['user'] as const,
  me: () => [...userKeys.all, 'me'] as const,
  memberships: () => [...userKeys.all, 'memberships'] as const,
  organizationMemberships: () => [...userKeys.all, 'organization-memberships'] as const,
};

/** The signed-in user. Never retried on 401 (that is the answer: the session is over). */
export function useCurrentUser() {
  return useQuery({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/user/me', { signal })),
  });
}

export function useWorkspaceMemberships() {
  return useQuery({
    queryKey: userKeys.memberships(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/user/me/memberships', { signal })),
  });
}

export function useOrganizationMemberships() {
  return useQuery({
    queryKey: userKeys.organizationMemberships(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/users/user/organization/memberships', { signal })),
  });
}

/** PATCH /api/v1/users/me/: a new username, or a new default workspace (its id). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/v1/users/me/', 'patch'>) =>
      call(api.PATCH('/api/v1/users/me/', { body })),
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.me(), user);
      return queryClient.invalidateQueries({ queryKey: userKeys.memberships() });
    },
  });
}
