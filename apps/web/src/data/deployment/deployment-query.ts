import { useQuery } from '@tanstack/react-query';

import { deploymentKeys } from '@/data/deployment/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

/** What this server offers (where mail goes, which links lead somewhere); public, fixed while it runs. */
export type Deployment = ApiData<'/api/v2/deployment', 'get'>;

export const getDeployment = (signal?: AbortSignal) => call(api.GET('/api/v2/deployment', { signal }));

export function useDeploymentQuery<TData = Deployment>(options: QueryOptions<Deployment, TData> = {}) {
  return useQuery({
    queryKey: deploymentKeys.all,
    queryFn: ({ signal }) => getDeployment(signal),
    staleTime: Number.POSITIVE_INFINITY,
    ...options,
  });
}
