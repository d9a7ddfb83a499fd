import { type ClusterRef, clusterPath } from '@/data/clusters/keys';
import { staffKeys } from '@/data/staff/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Marks a cluster seen by staff (`seen` false: not seen after all). */
export const markStaffSeen = ({ ref, seen }: { ref: ClusterRef; seen: boolean }) =>
  call(
    api.POST('/api/v2/clusters/account/{account}/id/{pk}/staff-has-seen', {
      params: { ...clusterPath(ref), query: { seen } },
    }),
  );

export function useStaffSeenMutation(options?: MutationOptions<typeof markStaffSeen>) {
  return useApiMutation(markStaffSeen, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: staffKeys.attention() }),
  );
}
