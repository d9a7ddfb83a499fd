import { replacePlan } from '@/data/pricing/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** An admin asks for Enterprise (staff are told; `nextPhaseTier` says so); staff move the organization onto it. */
export const upgradeToEnterprise = ({ organizationId }: { organizationId: number }) =>
  call(
    api.POST('/api/v2/pricing/upgrade-to-enterprise/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      body: { target_tier: 'enterprise' },
    }),
  );

export function useEnterpriseUpgradeMutation(options?: MutationOptions<typeof upgradeToEnterprise>) {
  return useApiMutation(upgradeToEnterprise, options, replacePlan);
}
