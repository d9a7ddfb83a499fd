import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { userKeys } from '@/data/user/keys';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type SshHost = ApiData<'/api/v2/ssh-hosts/{account}', 'get'>['items'][number];
export type SshHostBody = ApiBody<'/api/v2/ssh-hosts/{account}', 'post'>;

/** The workspace's SSH hosts with their health (the `ssh` backend); never their private keys. */
export function useSshHostsQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.sshHosts(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/ssh-hosts/{account}', { params: { path: { account } }, signal })),
  });
}

/**
 * What a change of the workspace's own machines (SSH hosts, a Slurm cluster) touches: their list,
 * and where the workspace's clusters run.
 */
export function useMachinesRefresh(account: string, list: readonly unknown[]) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: list }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.workspaceBackend(account) }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]);
}

const useRefresh = (account: string) => useMachinesRefresh(account, cloudKeys.sshHosts(account));

/** Registers a host: the server checks it first (pinned host key, Python with Dask) and answers field errors. */
export function useAddSshHostMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (body: SshHostBody) =>
      call(api.POST('/api/v2/ssh-hosts/{account}', { params: { path: { account } }, body })),
    onSuccess: refresh,
  });
}

export function useCheckSshHostMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (host: number) =>
      call(api.POST('/api/v2/ssh-hosts/{account}/{host}/check', { params: { path: { account, host } } })),
    onSuccess: refresh,
  });
}

export function useRemoveSshHostMutation(account: string) {
  const refresh = useRefresh(account);
  return useMutation({
    mutationFn: (host: number) =>
      call(api.DELETE('/api/v2/ssh-hosts/{account}/{host}', { params: { path: { account, host } } })),
    onSuccess: refresh,
  });
}
