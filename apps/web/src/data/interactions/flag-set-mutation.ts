import type { FlagName } from '@/data/interactions/flags-query';
import { interactionKeys } from '@/data/interactions/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const setFlag = ({ name, completed }: { name: FlagName; completed: boolean }) =>
  call(api.PUT('/api/v2/interactions/flag/{name}', { params: { path: { name } }, body: { completed } }));

export function useFlagSetMutation(options?: MutationOptions<typeof setFlag>) {
  return useApiMutation(setFlag, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: interactionKeys.flags() }),
  );
}
