import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The signed-in user's new password (the Profile page). */
export const changePassword = (body: ApiBody<'/api/v1/auth/password/change/', 'post'>) =>
  call(api.POST('/api/v1/auth/password/change/', { body }));

export function usePasswordChangeMutation(options?: MutationOptions<typeof changePassword>) {
  return useApiMutation(changePassword, options);
}
