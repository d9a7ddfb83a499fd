import { staffKeys } from '@/data/staff/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Locks or unlocks a user (`is_active`), or gives or takes the staff flag. */
export const updateStaffUser = ({
  id,
  change,
}: {
  id: number;
  change: ApiBody<'/api/v2/staff/users/{id}', 'patch'>;
}) => call(api.PATCH('/api/v2/staff/users/{id}', { params: { path: { id } }, body: change }));

export function useStaffUserUpdateMutation(options?: MutationOptions<typeof updateStaffUser>) {
  return useApiMutation(updateStaffUser, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: staffKeys.users() }),
  );
}
