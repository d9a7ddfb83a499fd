import { useQuery } from '@tanstack/react-query';

import { userKeys } from '@/data/user/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type LinkedIdentity = ApiData<'/api/v2/user/identities', 'get'>[number];

/** The provider identities (SSO, Google, GitHub) the signed-in user can sign in with. */
export function useIdentitiesQuery() {
  return useQuery({
    queryKey: userKeys.identities(),
    queryFn: ({ signal }) => call(api.GET('/api/v2/user/identities', { signal })),
  });
}

/** Unlinks one; the server refuses the last way to sign in. */
export const unlinkIdentity = (id: number) =>
  call(api.DELETE('/api/v2/user/identities/{identity_id}', { params: { path: { identity_id: id } } }));

export function useUnlinkIdentityMutation(options?: MutationOptions<typeof unlinkIdentity>) {
  return useApiMutation(unlinkIdentity, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: userKeys.identities() }),
  );
}
