import { softwareKeys } from '@/data/software/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export const deleteAlias = ({ account, name }: { account: string; name: string }) =>
  call(
    api.DELETE('/api/v2/software-environment/account/{account}/alias/name/{name}', {
      params: { path: { account, name } },
    }),
  );

export function useAliasDeleteMutation(options?: MutationOptions<typeof deleteAlias>) {
  return useApiMutation(deleteAlias, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: softwareKeys.all }),
  );
}
