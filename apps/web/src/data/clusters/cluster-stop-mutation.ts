import { type ClusterRef, clusterKeys, clusterPath } from '@/data/clusters/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The reason recorded with a stop from the console. */
export const stopReason = (username: string) => `Stopped by ${username} from the console`;

export const stopCluster = ({ ref, reason }: { ref: ClusterRef; reason: string }) =>
  call(
    api.DELETE('/api/v2/clusters/account/{account}/id/{pk}', {
      params: { ...clusterPath(ref), query: { reason } },
    }),
  );

/** After a stop: the Dashboard's pages and everything read of that one cluster. */
export function useClusterStopMutation(options?: MutationOptions<typeof stopCluster>) {
  return useApiMutation(stopCluster, options, (queryClient, _answer, { ref }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: clusterKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(ref.id) }),
      queryClient.invalidateQueries({ queryKey: clusterKeys.frontend(ref.id) }),
    ]),
  );
}
