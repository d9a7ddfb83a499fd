import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** The key of the link the verification email carries. */
export const verifyEmail = (key: string) =>
  call(api.POST('/api/v1/registration/verify-email/', { body: { key } }));

export function useEmailVerifyMutation(options?: MutationOptions<typeof verifyEmail>) {
  return useApiMutation(verifyEmail, options);
}
