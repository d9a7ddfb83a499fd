import { useQuery } from '@tanstack/react-query';

import { pricingKeys } from '@/data/pricing/keys';
import { USAGE_POLL_MS } from '@/data/pricing/plan-usage-query';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** This month's credits of the caller and of the workspace against their limits, in percent. */
export type WorkspaceUsage = ApiData<'/api/v2/pricing/workspace/{workspace_id}/usage', 'get'>;

export const getWorkspaceUsage = (workspaceId: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/pricing/workspace/{workspace_id}/usage', {
      params: { path: { workspace_id: workspaceId } },
      signal,
    }),
  );

/** Polled every 10 s. `workspaceId` null: none is known yet. */
export function useWorkspaceUsageQuery<TData = WorkspaceUsage>(
  { workspaceId }: { workspaceId: number | null },
  { enabled = true, ...options }: QueryOptions<WorkspaceUsage, TData> = {},
) {
  return useQuery({
    queryKey: pricingKeys.workspaceUsage(workspaceId ?? 0),
    queryFn: ({ signal }) => getWorkspaceUsage(workspaceId ?? 0, signal),
    enabled: enabled && workspaceId !== null,
    refetchInterval: USAGE_POLL_MS,
    ...options,
  });
}
