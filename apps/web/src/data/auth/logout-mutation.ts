import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, call } from '@/lib/api/client';
import type { MutationOptions } from '@/lib/api/hooks';
import { session } from '@/lib/api/session';

/** Sends logout with an empty payload; a failed logout leaves a session that expires by itself. */
export async function logout(): Promise<void> {
  try {
    await call(api.POST('/api/v1/auth/logout/'));
  } catch {
    // The token is forgotten either way (below).
  }
}

/** Logs out, then forgets the token and everything cached, whatever the answer. */
export function useLogoutMutation({ onSettled, ...options }: MutationOptions<typeof logout> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: logout,
    onSettled: async (...settled) => {
      session.clear({ loggedOut: true });
      queryClient.clear();
      await onSettled?.(...settled);
    },
  });
}
