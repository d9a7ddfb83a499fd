import { clusterKeys } from '@/data/clusters/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type CreateClusterBody = ApiBody<'/api/v2/clusters/account/{account}/', 'post'>;

/** A new cluster in the workspace `account` (its slug). */
export const createCluster = ({ account, body }: { account: string; body: CreateClusterBody }) =>
  call(api.POST('/api/v2/clusters/account/{account}/', { params: { path: { account } }, body }));

export function useClusterCreateMutation(options?: MutationOptions<typeof createCluster>) {
  return useApiMutation(createCluster, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: clusterKeys.lists() }),
  );
}
