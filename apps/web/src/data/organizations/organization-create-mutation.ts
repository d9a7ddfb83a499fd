import { refreshOrganization } from '@/data/organizations/refresh';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** A new organization; its creator is its admin. */
export const createOrganization = ({ name }: { name: string }) =>
  call(api.POST('/api/v2/users/organizations/create', { body: { name } }));

/** Waits for the fresh lists, so the new organization is a valid scope when it is picked. */
export function useOrganizationCreateMutation(options?: MutationOptions<typeof createOrganization>) {
  return useApiMutation(createOrganization, options, (queryClient) => refreshOrganization(queryClient, null));
}
