import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { softwareKeys } from '@/data/software/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type ScopedAliasQuery = NonNullable<
  paths['/api/v2/software-environment/alias']['get']['parameters']['query']
>;
export type AliasesPage = ApiData<'/api/v2/software-environment/alias', 'get'>;
export type Alias = AliasesPage['items'][number];
export type Spec = NonNullable<Alias['latestSpec']>;
export type Build = NonNullable<Spec['latestBuild']>;

/** One page of the Software list: the environments of the scope, filtered and ordered. */
export const getAliasesPage = (query: ScopedAliasQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/software-environment/alias', { params: { query }, signal }));

/** `query` null: the scope is not known yet. The previous page stays shown while the next loads. */
export function useAliasesQuery<TData = AliasesPage>(
  { query }: { query: ScopedAliasQuery | null },
  { enabled = true, ...options }: QueryOptions<AliasesPage, TData> = {},
) {
  return useQuery({
    queryKey: softwareKeys.list(query ?? {}),
    queryFn: ({ signal }) => getAliasesPage(query ?? {}, signal),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
