import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiData, api, call } from '@/lib/api/client';

/** Who invites whom where, read by the token of an invitation link (`?invite=`). */
export type InvitePreview = ApiData<'/api/v2/users/invites/token/{token}', 'get'>;

export const getInvitePreview = (token: string, signal?: AbortSignal) =>
  call(api.GET('/api/v2/users/invites/token/{token}', { params: { path: { token } }, signal }));

/** `token` null: the page was not opened from an invitation link. Unknown tokens are not retried. */
export function useInvitePreviewQuery(token: string | null) {
  return useQuery({
    queryKey: organizationKeys.invitePreview(token ?? ''),
    queryFn: ({ signal }) => getInvitePreview(token ?? '', signal),
    enabled: token !== null && token !== '',
    retry: false,
  });
}
