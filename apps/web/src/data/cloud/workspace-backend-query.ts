import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { api, call } from '@/lib/api/client';

/** Workspace details are polled every 3 s until the workspace has its cloud backend. */
export const WORKSPACE_POLL_MS = 3_000;

export const getWorkspaceDetails = (slug: string, signal?: AbortSignal) =>
  call(api.GET('/api/v2/users/workspaces/details', { params: { query: { workspace_slug: slug } }, signal }));

/** `waitForCloud`: keep polling while the workspace still runs on this server's own backend. */
export function useWorkspaceBackendQuery(slug: string, waitForCloud: boolean) {
  return useQuery({
    queryKey: cloudKeys.workspaceBackend(slug),
    queryFn: ({ signal }) => getWorkspaceDetails(slug, signal),
    refetchInterval: (query) =>
      waitForCloud && (query.state.data?.activeBackend ?? 'in_process') === 'in_process'
        ? WORKSPACE_POLL_MS
        : false,
  });
}
