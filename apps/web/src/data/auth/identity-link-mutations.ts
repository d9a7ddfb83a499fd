import { startSession } from '@/data/auth/session-start';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Mails the owner of the account a provider sign-in found a single-use link that proves it. */
export const mailIdentityLink = () => call(api.POST('/api/v2/user/identities/link-email'));

export function useMailIdentityLinkMutation(options?: MutationOptions<typeof mailIdentityLink>) {
  return useApiMutation(mailIdentityLink, options);
}

/** Uses the mailed link: links the waiting identity and, when the account may, signs its owner in. */
export const confirmIdentityLink = (token: string) =>
  call(api.POST('/api/v2/user/identities/link-confirm', { body: { token } }));

export function useConfirmIdentityLinkMutation(options?: MutationOptions<typeof confirmIdentityLink>) {
  return useApiMutation(confirmIdentityLink, options, (queryClient, { key }) => {
    if (key) startSession(queryClient, { key });
  });
}
