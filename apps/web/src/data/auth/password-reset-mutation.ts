import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Mails a reset link. */
export const resetPassword = (email: string) =>
  call(api.POST('/api/v1/auth/password/reset/', { body: { email } }));

export function usePasswordResetMutation(options?: MutationOptions<typeof resetPassword>) {
  return useApiMutation(resetPassword, options);
}
