import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const resendConfirmationEmail = (email: string) =>
  call(api.POST('/api/v1/resend-confirmation-email/', { body: { email } }));

export function useConfirmationEmailResendMutation(
  options?: MutationOptions<typeof resendConfirmationEmail>,
) {
  return useApiMutation(resendConfirmationEmail, options);
}
