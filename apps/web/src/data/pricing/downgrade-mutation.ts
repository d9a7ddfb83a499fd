import { replacePlan } from '@/data/pricing/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/**
 * Moves the organization to Free: at once, or (paying by card) at the end of the paid period,
 * which the answer's `nextPhaseTier` and `cancelAt` say.
 */
export const downgradeToFree = ({ organizationId }: { organizationId: number }) =>
  call(
    api.POST('/api/v2/pricing/downgrade-to-free/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      body: { target_tier: 'free' },
    }),
  );

export function useDowngradeMutation(options?: MutationOptions<typeof downgradeToFree>) {
  return useApiMutation(downgradeToFree, options, replacePlan);
}
