import { useQuery } from '@tanstack/react-query';

import { staffKeys } from '@/data/staff/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type PendingSsoDomains = ApiData<'/api/v2/staff/sso-domains', 'get'>;
export type PendingSsoDomain = PendingSsoDomains[number];

/** Email domains organizations claimed for their SSO that no TXT record has proven yet, oldest first. */
export const getPendingSsoDomains = (signal?: AbortSignal) =>
  call(api.GET('/api/v2/staff/sso-domains', { signal }));

export function usePendingSsoDomainsQuery(options: QueryOptions<PendingSsoDomains> = {}) {
  return useQuery({
    queryKey: staffKeys.ssoDomains(),
    queryFn: ({ signal }) => getPendingSsoDomains(signal),
    ...options,
  });
}
