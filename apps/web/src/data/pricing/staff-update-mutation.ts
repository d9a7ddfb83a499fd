import { replacePlan } from '@/data/pricing/refresh';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type Variables = {
  organizationId: number;
  body: ApiBody<'/api/v2/pricing/update-staff/{organization_id}', 'patch'>;
};

/** Staff set any field of the plan and the organization's billing. */
export const updatePlanAsStaff = ({ organizationId, body }: Variables) =>
  call(
    api.PATCH('/api/v2/pricing/update-staff/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      body,
    }),
  );

export function useStaffUpdateMutation(options?: MutationOptions<typeof updatePlanAsStaff>) {
  return useApiMutation(updatePlanAsStaff, options, replacePlan);
}
