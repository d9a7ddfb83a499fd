import { staffKeys } from '@/data/staff/keys';
import { api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

/** A staff decision that an organization owns a domain (when it cannot publish a TXT record). */
export const verifySsoDomain = (domainId: number) =>
  call(
    api.POST('/api/v2/staff/sso-domains/{domain_id}/verify', { params: { path: { domain_id: domainId } } }),
  );

export function useSsoDomainVerifyMutation(options?: MutationOptions<typeof verifySsoDomain>) {
  return useApiMutation(verifySsoDomain, options, (queryClient) =>
    queryClient.invalidateQueries({ queryKey: staffKeys.ssoDomains() }),
  );
}
