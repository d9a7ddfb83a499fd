import { userKeys } from '@/data/user/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** PATCH /api/v1/users/me/: a new username, or a new default workspace (its id). */
export const updateUser = (body: ApiBody<'/api/v1/users/me/', 'patch'>) =>
  call(api.PATCH('/api/v1/users/me/', { body }));

export function useUserUpdateMutation(options?: MutationOptions<typeof updateUser>) {
  return useApiMutation(updateUser, options, (queryClient, user) => {
    queryClient.setQueryData(userKeys.me(), user);
    return queryClient.invalidateQueries({ queryKey: userKeys.workspaceMemberships() });
  });
}
