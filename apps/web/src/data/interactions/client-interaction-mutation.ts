import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** Records a console event (the welcome dialog's answer, for instance); nothing reads it back. */
export const recordClientInteraction = (body: ApiBody<'/api/v2/interactions/interaction', 'post'>) =>
  call(api.POST('/api/v2/interactions/interaction', { body }));

export function useClientInteractionMutation(options?: MutationOptions<typeof recordClientInteraction>) {
  return useApiMutation(recordClientInteraction, options);
}
