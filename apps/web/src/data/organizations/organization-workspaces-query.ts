import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';
import { allItems } from '@/lib/api/pages';

/** A workspace of the organization, with its members and limits. */
export type OrganizationWorkspace = ApiData<'/api/v2/users/workspaces/', 'get'>['items'][number];

/** The organization's workspaces the user sees (all of them for its admins), every page. */
export const getOrganizationWorkspaces = (organizationId: number, signal?: AbortSignal) =>
  allItems((page) =>
    call(
      api.GET('/api/v2/users/workspaces/', {
        params: { query: { organization_id: organizationId, ...page } },
        signal,
      }),
    ),
  );

export function useOrganizationWorkspacesQuery<TData = OrganizationWorkspace[]>(
  { organizationId }: { organizationId: number | null },
  { enabled = true, ...options }: QueryOptions<OrganizationWorkspace[], TData> = {},
) {
  return useQuery({
    queryKey: organizationKeys.workspaces(organizationId ?? 0),
    queryFn: ({ signal }) => getOrganizationWorkspaces(organizationId ?? 0, signal),
    enabled: enabled && organizationId !== null,
    ...options,
  });
}
