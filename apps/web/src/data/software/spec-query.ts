import { useQuery } from '@tanstack/react-query';

import type { Spec } from '@/data/software/aliases-query';
import { softwareKeys } from '@/data/software/keys';
import { api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export const getSpec = ({ account, id }: { account: string; id: number }, signal?: AbortSignal) =>
  call(
    api.GET('/api/v2/software-environment/account/{account}/spec/{pk}', {
      params: { path: { account, pk: id } },
      signal,
    }),
  );

export function useSpecQuery<TData = Spec>(
  ref: { account: string; id: number } | null,
  { enabled = true, ...options }: QueryOptions<Spec, TData> = {},
) {
  return useQuery({
    queryKey: softwareKeys.spec(ref ?? { account: '', id: 0 }),
    queryFn: ({ signal }) => getSpec(ref!, signal),
    enabled: enabled && ref !== null,
    ...options,
  });
}
