import { userKeys } from '@/data/user/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Sets the GitHub access token (stored encrypted; only whether one is set is ever read back), or removes it with null. */
export const setGitAccessToken = ({ userId, token }: { userId: number; token: string | null }) =>
  call(
    api.PATCH('/api/v1/users/{id}/access_token/', {
      params: { path: { id: userId } },
      body: { git_access_token: token },
    }),
  );

export function useGitAccessTokenMutation(options?: MutationOptions<typeof setGitAccessToken>) {
  return useApiMutation(setGitAccessToken, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: userKeys.me() }),
  );
}
