import { interactionKeys } from '@/data/interactions/keys';
import type { InteractionTypeName } from '@/data/interactions/notice-seen';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Marks a notice seen (POST /api/v1/interactions/). */
export const recordInteraction = (interactionType: InteractionTypeName) =>
  call(api.POST('/api/v1/interactions/', { body: { interaction_type: interactionType } }));

export function useInteractionRecordMutation(options?: MutationOptions<typeof recordInteraction>) {
  return useApiMutation(recordInteraction, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: interactionKeys.list() }),
  );
}
