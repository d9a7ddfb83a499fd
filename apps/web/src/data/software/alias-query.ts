import { useQuery } from '@tanstack/react-query';

import type { Alias } from '@/data/software/aliases-query';
import { type AliasRef, softwareKeys } from '@/data/software/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export const getAlias = ({ account, id }: AliasRef, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/alias/id/{pk}', {
      params: { path: { account, pk: id } },
      signal,
    }),
  );

export function useAliasQuery<TData = Alias>(ref: AliasRef, options: QueryOptions<Alias, TData> = {}) {
  return useQuery({
    queryKey: softwareKeys.alias(ref),
    queryFn: ({ signal }) => getAlias(ref, signal),
    ...options,
  });
}
