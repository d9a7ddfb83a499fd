import { apiTokenKeys } from '@/data/api-tokens/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Terminal sign-in, step 2: the signed-in user claims the pending token (it then acts as them). */
export const activateApiToken = (identifier: string) =>
  call(api.PATCH('/api/v1/api-tokens/{id}/activate/', { params: { path: { id: identifier } } }));

export function useApiTokenActivateMutation(options?: MutationOptions<typeof activateApiToken>) {
  return useApiMutation(activateApiToken, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: apiTokenKeys.list() }),
  );
}
