import { staffKeys } from '@/data/staff/keys';
import { userKeys } from '@/data/user/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Locks or unlocks a user (`is_active`), gives or takes the staff flag, shows or hides their Notebooks page. */
export const updateStaffUser = ({
  id,
  change,
}: {
  id: number;
  change: ApiBody<'/api/v2/staff/users/{id}', 'patch'>;
}) => call(api.PATCH('/api/v2/staff/users/{id}', { params: { path: { id } }, body: change }));

export function useStaffUserUpdateMutation(options?: MutationOptions<typeof updateStaffUser>) {
  // The signed-in user too: staff may show themselves the Notebooks page.
  return useApiMutation(updateStaffUser, options, (queryClient) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: staffKeys.users() }),
      queryClient.invalidateQueries({ queryKey: userKeys.me() }),
    ]),
  );
}
