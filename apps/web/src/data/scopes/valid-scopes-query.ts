import { useQuery } from '@tanstack/react-query';

import { scopeKeys } from '@/data/scopes/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { SHELL_STALE_MS } from '@/lib/api/query-client';

/**
 * A scope: what a list page shows (section 3 "Scope"). `type` is compound (Everything), account
 * (a workspace; `slug` set), organization, user or custom_staff; `id` is what list filters take.
 */
export type Scope = ApiData<'/api/v2/users/user/valid-scopes', 'get'>[number];

/** The scopes the user may pick: Everything, their organizations and workspaces, themselves; staff lists for staff. */
export const getValidScopes = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/users/user/valid-scopes', { signal }));

/** Read by the signed-in shell, and asked for as navigation starts (app/shell/prefetch.ts). */
export const validScopesQuery = () => ({
  queryKey: scopeKeys.valid(),
  queryFn: ({ signal }: { signal: AbortSignal }) => getValidScopes(signal),
  staleTime: SHELL_STALE_MS,
});

export function useValidScopesQuery<TData = Scope[]>(options: QueryOptions<Scope[], TData> = {}) {
  return useQuery({ ...validScopesQuery(), ...options });
}
