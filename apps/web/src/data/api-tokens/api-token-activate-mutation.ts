import { apiTokenKeys } from '@/data/api-tokens/keys';
import { interactionKeys } from '@/data/interactions/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/**
 * Terminal sign-in, step 2: the signed-in user types the code their terminal printed; when it
 * matches, the pending token is theirs (it then acts as them).
 */
export const activateApiToken = ({ identifier, userCode }: { identifier: string; userCode: string }) =>
  call(
    api.PATCH('/api/v1/api-tokens/{id}/activate/', {
      params: { path: { id: identifier } },
      body: { user_code: userCode },
    }),
  );

export function useApiTokenActivateMutation(options?: MutationOptions<typeof activateApiToken>) {
  // The server ticks has-api-key with it (the token banner and Get Started read the flag).
  return useApiMutation(activateApiToken, options, (queryClient) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: apiTokenKeys.list() }),
      queryClient.invalidateQueries({ queryKey: interactionKeys.flags() }),
    ]),
  );
}
