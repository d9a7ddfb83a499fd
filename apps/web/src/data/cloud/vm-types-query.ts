import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type VmType = ApiData<'/api/v2/pricing/vm-types/', 'get'>['items'][number];

/** The instance types of a cloud, cheapest first; cached 5 minutes. */
export function useVmTypesQuery(backendType: 'vm_aws' | 'vm_gcp' | 'vm_azure' | null) {
  return useQuery({
    queryKey: cloudKeys.vmTypes(backendType ?? ''),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/pricing/vm-types/', {
          params: { query: { backend_type: backendType ?? undefined, limit: 500 } },
          signal,
        }),
      ),
    enabled: backendType !== null,
    staleTime: 5 * 60_000,
  });
}
