import { apiTokenKeys } from '@/data/api-tokens/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const revokeApiToken = (identifier: string) =>
  call(api.DELETE('/api/v1/api-tokens/{identifier}/revoke', { params: { path: { identifier } } }));

export function useApiTokenRevokeMutation(options?: MutationOptions<typeof revokeApiToken>) {
  return useApiMutation(revokeApiToken, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: apiTokenKeys.list() }),
  );
}
