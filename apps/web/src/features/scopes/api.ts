import { useQuery } from '@tanstack/react-query';

import { type ApiData, api, call } from '@/lib/api/client';

/**
 * A scope: what a list page shows (section 3 "Scope"). `type` is compound (Everything), account
 * (a workspace; `slug` set), organization, user or custom_staff; `id` is what list filters take.
 */
export type Scope = ApiData<'/api/v2/users/user/valid-scopes', 'get'>[number];

export const scopeKeys = {
  all: ['scopes'] as const,
  valid: () => [...scopeKeys.all, 'valid'] as const,
  staffOrganizations: (startsWith: string) => [...scopeKeys.all, 'staff-organizations', startsWith] as const,
};

/** The scopes the user may pick: Everything, their organizations and workspaces, themselves; staff lists for staff. */
export function useValidScopes() {
  return useQuery({
    queryKey: scopeKeys.valid(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/users/user/valid-scopes', { signal })),
  });
}

/** Staff only: organizations whose name starts with the text, to scope a list to any of them. */
export function useStaffOrganizationSearch(startsWith: string, enabled: boolean) {
  return useQuery({
    queryKey: scopeKeys.staffOrganizations(startsWith),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/users/organizations/staff-list-values', {
          params: { query: { starts_with: startsWith, limit: 20 } },
          signal,
        }),
      ),
    enabled: enabled && startsWith.length > 0,
    staleTime: 30_000,
  });
}
