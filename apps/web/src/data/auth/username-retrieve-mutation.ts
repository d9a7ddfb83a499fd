import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Mails the usernames of the accounts with this email. */
export const retrieveUsername = (email: string) =>
  call(api.POST('/api/v1/users/retrieve-username/', { body: { email } }));

export function useUsernameRetrieveMutation(options?: MutationOptions<typeof retrieveUsername>) {
  return useApiMutation(retrieveUsername, options);
}
