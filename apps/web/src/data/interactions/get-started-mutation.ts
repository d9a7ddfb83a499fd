import { interactionKeys } from '@/data/interactions/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Records progress: `data` is merged into what the server holds; `completed` ends the checklist. */
export const updateGetStarted = (body: ApiBody<'/api/v2/interactions/get-started', 'put'>) =>
  call(api.PUT('/api/v2/interactions/get-started', { body }));

export function useGetStartedMutation(options?: MutationOptions<typeof updateGetStarted>) {
  return useApiMutation(updateGetStarted, options, (queryClient, answer) => {
    queryClient.setQueryData(interactionKeys.getStarted(), answer);
    return queryClient.invalidateQueries({ queryKey: interactionKeys.flags() });
  });
}
