import { useQuery } from '@tanstack/react-query';

import { type AliasRef, softwareKeys } from '@/data/software/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type BuildsPage = ApiData<
  '/api/v2/software-environment/account/{account}/alias/id/{id}/builds',
  'get'
>;

/** Every build of an environment (all its specs), newest first. */
export const getAliasBuilds = ({ account, id }: AliasRef, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/alias/id/{id}/builds', {
      params: { path: { account, id }, query: { limit: 100 } },
      signal,
    }),
  );

export function useAliasBuildsQuery<TData = BuildsPage>(
  ref: AliasRef,
  options: QueryOptions<BuildsPage, TData> = {},
) {
  return useQuery({
    queryKey: softwareKeys.aliasBuilds(ref),
    queryFn: ({ signal }) => getAliasBuilds(ref, signal),
    ...options,
  });
}
