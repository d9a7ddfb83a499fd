import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type SetupAttempt = ApiData<
  '/api/v2/cloud-credentials/account/{account}/cf-setup-attempt/{id}',
  'get'
>;
export type RoleCallbackBody = ApiBody<'/api/v2/cloud-credentials/callback', 'post'>;

/** Polled every 3 s while pending (console.md section 9). */
export const ATTEMPT_POLL_MS = 3_000;

export const startCloudFormation = ({ account }: { account: string }) =>
  call(
    api.POST('/api/v2/cloud-credentials/account/{account}/cf-setup-attempt', {
      params: { path: { account } },
    }),
  );

export const getSetupAttempt = (account: string, id: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/cloud-credentials/account/{account}/cf-setup-attempt/{id}', {
      params: { path: { account, id } },
      signal,
    }),
  );

export function useStartCloudFormationMutation(options?: MutationOptions<typeof startCloudFormation>) {
  return useApiMutation(startCloudFormation, options, (queryClient, data, { account }) =>
    queryClient.setQueryData(cloudKeys.attempt(account, data.id), data),
  );
}

export function useSetupAttemptQuery(account: string, id: number | null) {
  return useQuery({
    queryKey: cloudKeys.attempt(account, id ?? 0),
    queryFn: ({ signal }) => getSetupAttempt(account, id!, signal),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? ATTEMPT_POLL_MS : false),
  });
}

/** Reports the role the stack made; the server assumes it once and keeps it. */
export const reportRole = ({ body }: { account: string; body: RoleCallbackBody }) =>
  call(api.POST('/api/v2/cloud-credentials/callback', { body }));

export function useReportRoleMutation(options?: MutationOptions<typeof reportRole>) {
  return useApiMutation(reportRole, options, (queryClient, _data, { account }) =>
    queryClient.invalidateQueries({ queryKey: [...cloudKeys.all, account] }),
  );
}
