import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The reset link's uid and token, with the new password twice. */
export const confirmPasswordReset = (body: ApiBody<'/api/v1/auth/password/reset/confirm/', 'post'>) =>
  call(api.POST('/api/v1/auth/password/reset/confirm/', { body }));

export function usePasswordResetConfirmMutation(options?: MutationOptions<typeof confirmPasswordReset>) {
  return useApiMutation(confirmPasswordReset, options);
}
