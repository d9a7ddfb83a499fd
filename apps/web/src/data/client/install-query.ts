import { useQuery } from '@tanstack/react-query';

import { clientKeys } from '@/data/client/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** Where this server is, its Python client, and the interpreter its clusters run. */
export type ClientInstall = ApiData<'/api/v2/client/install', 'get'>;

export const getClientInstall = (signal?: AbortSignal) => call(api.GET('/api/v2/client/install', { signal }));

/** It changes only when the server is reconfigured: read once a session. */
export function useClientInstallQuery<TData = ClientInstall>(
  options: QueryOptions<ClientInstall, TData> = {},
) {
  return useQuery({
    queryKey: clientKeys.install(),
    queryFn: ({ signal }) => getClientInstall(signal),
    staleTime: Number.POSITIVE_INFINITY,
    ...options,
  });
}
