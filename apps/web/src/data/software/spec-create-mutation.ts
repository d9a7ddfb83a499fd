import { softwareKeys } from '@/data/software/keys';
import { type ApiBody, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type CreateSpecBody = ApiBody<'/api/v2/software-environment/account/{account}', 'post'>;

/** Creates (or updates) an environment and queues its build; the console always sends force_rebuild. */
export const createSpec = ({ account, body }: { account: string; body: CreateSpecBody }) =>
  call(api.POST('/api/v2/software-environment/account/{account}', { params: { path: { account } }, body }));

export function useSpecCreateMutation(options?: MutationOptions<typeof createSpec>) {
  return useApiMutation(createSpec, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: softwareKeys.all }),
  );
}
