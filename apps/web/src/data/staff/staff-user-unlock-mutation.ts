import { staffKeys } from '@/data/staff/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Clears the failed sign-ins that locked a user out. */
export const unlockStaffUser = (id: number) =>
  call(api.POST('/api/v2/staff/users/{id}/unlock', { params: { path: { id } }, body: {} }));

export function useStaffUserUnlockMutation(options?: MutationOptions<typeof unlockStaffUser>) {
  return useApiMutation(unlockStaffUser, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: staffKeys.users() }),
  );
}
