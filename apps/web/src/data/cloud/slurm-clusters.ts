import { useMutation, useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { useMachinesRefresh } from '@/data/cloud/ssh-hosts';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type SlurmCluster = ApiData<'/api/v2/slurm-clusters/{account}', 'get'>['items'][number];
export type SlurmClusterBody = ApiBody<'/api/v2/slurm-clusters/{account}', 'post'>;

/** The workspace's Slurm cluster (none or one) with its health (the `slurm` backend); never its private key. */
export function useSlurmClustersQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.slurmClusters(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/slurm-clusters/{account}', { params: { path: { account } }, signal })),
  });
}

const useRefresh = (account: string) => useMachinesRefresh(account, cloudKeys.slurmClusters(account));

/** Connects it: the server runs sinfo for the partition on the login node first and answers field errors. */
export function useConnectSlurmClusterMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (body: SlurmClusterBody) =>
      call(api.POST('/api/v2/slurm-clusters/{account}', { params: { path: { account } }, body })),
    onSuccess: refresh,
  });
}

export function useCheckSlurmClusterMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (cluster: number) =>
      call(
        api.POST('/api/v2/slurm-clusters/{account}/{cluster}/check', {
          params: { path: { account, cluster } },
        }),
      ),
    onSuccess: refresh,
  });
}

export function useDisconnectSlurmClusterMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (cluster: number) =>
      call(
        api.DELETE('/api/v2/slurm-clusters/{account}/{cluster}', { params: { path: { account, cluster } } }),
      ),
    onSuccess: refresh,
  });
}

/** Gives a cluster reached through slurmrestd a new token; the server checks it with slurmrestd first. */
export function useReplaceSlurmTokenMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: ({ cluster, token }: { cluster: number; token: string }) =>
      call(
        api.PUT('/api/v2/slurm-clusters/{account}/{cluster}/token', {
          params: { path: { account, cluster } },
          body: { token },
        }),
      ),
    onSuccess: refresh,
  });
}
