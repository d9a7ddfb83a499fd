import { userKeys } from '@/data/user/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The Profile page's details (names, title, company, contact); the user answers with them. */
export const updateProfile = (body: ApiBody<'/api/v1/users/me/profile/', 'patch'>) =>
  call(api.PATCH('/api/v1/users/me/profile/', { body }));

export function useProfileUpdateMutation(options?: MutationOptions<typeof updateProfile>) {
  return useApiMutation(updateProfile, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: userKeys.me() }),
  );
}
