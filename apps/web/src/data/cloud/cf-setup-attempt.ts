import { useQuery, useQueryClient } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { userKeys } from '@/data/user/keys';
import { useActionRequiredMutation } from '@/lib/api/action-required';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type SetupAttempt = ApiData<
  '/api/v2/cloud-credentials/account/{account}/cf-setup-attempt/{id}',
  'get'
>;
export type CompleteRoleBody = ApiBody<
  '/api/v2/cloud-credentials/account/{account}/complete-role-assumption-setup',
  'post'
>;

/** Polled every 3 s while pending. */
export const ATTEMPT_POLL_MS = 3_000;

const confirmQuery = (confirm: boolean) => (confirm ? { confirm: true } : {});

/** Starts a CloudFormation setup; with the workspace's keys the server creates the stack itself. */
export const startCloudFormation = (account: string, confirm: boolean) =>
  call(
    api.POST('/api/v2/cloud-credentials/account/{account}/cf-setup-attempt', {
      params: { path: { account }, query: confirmQuery(confirm) },
    }),
  );

export const getSetupAttempt = (account: string, id: number, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/cloud-credentials/account/{account}/cf-setup-attempt/{id}', {
      params: { path: { account, id } },
      signal,
    }),
  );

/**
 * Refreshes what a role kept as the credentials touches: the credentials, the setup and the
 * workspace (not the attempts: a completed attempt's own fetch calls this).
 */
function useRefresh(account: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cloudKeys.credentials(account, 'aws') }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.awsSetup(account) }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.workspaceBackend(account) }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]);
}

/** Follows the 409 protocol: replacing keys with a role while clusters run asks first. */
export function useStartCloudFormationMutation(account: string) {
  const queryClient = useQueryClient();
  return useActionRequiredMutation({
    mutationFn: (_: undefined, confirm) => startCloudFormation(account, confirm),
    onSuccess: (data) => queryClient.setQueryData(cloudKeys.attempt(account, data.id), data),
  });
}

export function useSetupAttemptQuery(account: string, id: number | null) {
  const refresh = useRefresh(account);
  return useQuery({
    queryKey: cloudKeys.attempt(account, id ?? 0),
    queryFn: async ({ signal }) => {
      const attempt = await getSetupAttempt(account, id!, signal);
      // A stack Cumulus made completes here: its role is now the workspace's credentials.
      if (attempt.state === 'complete' && attempt.mode === 'cumulus') await refresh();
      return attempt;
    },
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? ATTEMPT_POLL_MS : false),
  });
}

/** Keeps the role the user's stack made: the server assumes it once; the 409 protocol applies. */
export const completeRoleSetup = (account: string, body: CompleteRoleBody, confirm: boolean) =>
  call(
    api.POST('/api/v2/cloud-credentials/account/{account}/complete-role-assumption-setup', {
      params: { path: { account }, query: confirmQuery(confirm) },
      body,
    }),
  );

export function useCompleteRoleSetupMutation(account: string) {
  const refresh = useRefresh(account);
  return useActionRequiredMutation({
    mutationFn: (body: CompleteRoleBody, confirm) => completeRoleSetup(account, body, confirm),
    onSuccess: refresh,
  });
}
