import { useMutation, useQueryClient } from '@tanstack/react-query';

import { profileKeys } from '@/features/profile/api';
import { api, call } from '@/lib/api/client';

/** Terminal sign-in, step 2: the signed-in user claims the pending token (it then acts as them). */
export function useActivateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identifier: string) =>
      call(api.PATCH('/api/v1/api-tokens/{id}/activate/', { params: { path: { id: identifier } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.tokens() }),
  });
}
