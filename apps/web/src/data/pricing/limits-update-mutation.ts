import { replacePlan } from '@/data/pricing/refresh';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

type Variables = {
  organizationId: number;
  body: ApiBody<'/api/v2/pricing/update/{organization_id}', 'patch'>;
};

/** Organization admins set the organization's credit limit, spend limit and whether it stops clusters. */
export const updateLimits = ({ organizationId, body }: Variables) =>
  call(
    api.PATCH('/api/v2/pricing/update/{organization_id}', {
      params: { path: { organization_id: organizationId } },
      body,
    }),
  );

export function useLimitsUpdateMutation(options?: MutationOptions<typeof updateLimits>) {
  return useApiMutation(updateLimits, options, replacePlan);
}
