import { useQueryClient } from '@tanstack/react-query';

import { type CloudProvider, cloudKeys } from '@/data/cloud/keys';
import { userKeys } from '@/data/user/keys';
import { useActionRequiredMutation } from '@/lib/api/action-required';
import { type ApiBody, api, call } from '@/lib/api/client';

export type AwsCredentialsBody = ApiBody<'/api/v2/cloud-credentials/{account}/aws', 'post'>;
export type GcpCredentialsBody = ApiBody<'/api/v2/cloud-credentials/{account}/gcp', 'post'>;
export type AzureCredentialsBody = ApiBody<'/api/v2/cloud-credentials/{account}/azure', 'post'>;
export type SaveCredentials =
  | { provider: 'aws'; body: AwsCredentialsBody }
  | { provider: 'gcp'; body: GcpCredentialsBody }
  | { provider: 'azure'; body: AzureCredentialsBody };

/** Checks and stores credentials; `confirm` repeats the call after a 409. */
export function saveCloudCredentials(account: string, input: SaveCredentials, confirm: boolean) {
  const params = { path: { account }, query: confirm ? { confirm: true } : {} };
  if (input.provider === 'aws')
    return call(api.POST('/api/v2/cloud-credentials/{account}/aws', { params, body: input.body }));
  if (input.provider === 'gcp')
    return call(api.POST('/api/v2/cloud-credentials/{account}/gcp', { params, body: input.body }));
  return call(api.POST('/api/v2/cloud-credentials/{account}/azure', { params, body: input.body }));
}

const deletePath = {
  aws: '/api/v2/cloud-credentials/{account}/aws',
  gcp: '/api/v2/cloud-credentials/{account}/gcp',
  azure: '/api/v2/cloud-credentials/{account}/azure',
} as const;

export const deleteCloudCredentials = (account: string, provider: CloudProvider, confirm: boolean) =>
  call(
    api.DELETE(deletePath[provider], {
      params: { path: { account }, query: confirm ? { confirm: true } : {} },
    }),
  );

/** Refreshes what a credentials change touches: the credentials, the setup and the workspace. */
function useRefresh(account: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [...cloudKeys.all, account] }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]);
}

export function useSaveCloudCredentialsMutation(account: string) {
  const refresh = useRefresh(account);
  return useActionRequiredMutation({
    mutationFn: (input: SaveCredentials, confirm) => saveCloudCredentials(account, input, confirm),
    onSuccess: refresh,
  });
}

export function useDeleteCloudCredentialsMutation(account: string) {
  const refresh = useRefresh(account);
  return useActionRequiredMutation({
    mutationFn: (provider: CloudProvider, confirm) => deleteCloudCredentials(account, provider, confirm),
    onSuccess: refresh,
  });
}
