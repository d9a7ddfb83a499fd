import { useQuery } from '@tanstack/react-query';

import type { Build } from '@/data/software/aliases-query';
import { type BuildRef, softwareKeys } from '@/data/software/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export const getBuild = ({ account, id }: BuildRef, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/build/{id}', {
      params: { path: { account, id } },
      signal,
    }),
  );

/** A build; pages poll it (every 2 s) until it is built or failed. */
export function useBuildQuery<TData = Build>(ref: BuildRef, options: QueryOptions<Build, TData> = {}) {
  return useQuery({
    queryKey: softwareKeys.build(ref),
    queryFn: ({ signal }) => getBuild(ref, signal),
    ...options,
  });
}
