import { useQuery } from '@tanstack/react-query';

import { type CloudProvider, cloudKeys } from '@/data/cloud/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type CloudCredentials = ApiData<'/api/v2/cloud-credentials/{account}/aws', 'get'>;

const path = {
  aws: '/api/v2/cloud-credentials/{account}/aws',
  gcp: '/api/v2/cloud-credentials/{account}/gcp',
  azure: '/api/v2/cloud-credentials/{account}/azure',
} as const;

/** A workspace's credentials for one cloud, masked. */
export const getCloudCredentials = (account: string, provider: CloudProvider, signal?: AbortSignal) =>
  call(api.GET(path[provider], { params: { path: { account } }, signal }));

export function useCloudCredentialsQuery(account: string, provider: CloudProvider) {
  return useQuery({
    queryKey: cloudKeys.credentials(account, provider),
    queryFn: ({ signal }) => getCloudCredentials(account, provider, signal),
  });
}
