import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type CloudConfig = ApiData<'/api/v2/cloud/config/', 'get'>;

/** Regions (and GCP zones) the Cloud pages offer. */
export const getCloudConfig = (signal?: AbortSignal) => call(api.GET('/api/v2/cloud/config/', { signal }));

export function useCloudConfigQuery() {
  return useQuery({
    queryKey: cloudKeys.config(),
    queryFn: ({ signal }) => getCloudConfig(signal),
    staleTime: Infinity,
  });
}
