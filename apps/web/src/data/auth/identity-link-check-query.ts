import { useQuery } from '@tanstack/react-query';

import { type ApiData, api, call } from '@/lib/api/client';

export type IdentityLinkCheck = ApiData<'/api/v2/user/identities/link-check', 'post'>;

/** What a mailed link would link (provider, address, account), without using it. */
export const checkIdentityLink = (token: string, signal?: AbortSignal) =>
  call(api.POST('/api/v2/user/identities/link-check', { body: { token }, signal }));

/** A used or expired link answers 400 at once: nothing to retry. */
export function useIdentityLinkCheckQuery(token: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: ['identity-link', token] as const,
    queryFn: ({ signal }) => checkIdentityLink(token, signal),
    enabled,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
