import { useQuery } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

const BASE = '/api/v2/users/organizations/sso/{organization_id}';
export type OrganizationSso = ApiData<typeof BASE, 'get'>;
type ConnectionBody = ApiBody<`${typeof BASE}/connection`, 'put'>;
const path = (organizationId: number) => ({ path: { organization_id: organizationId } });

/** The organization's own SSO: its connection (never the secret), domains and Require SSO (admins only). */
export function useOrganizationSsoQuery(organizationId: number) {
  return useQuery({
    queryKey: organizationKeys.sso(organizationId),
    queryFn: ({ signal }) => call(api.GET(BASE, { params: path(organizationId), signal })),
  });
}

const refresh = (organizationId: number) => (queryClient: import('@tanstack/react-query').QueryClient) =>
  queryClient.invalidateQueries({ queryKey: organizationKeys.sso(organizationId) });

export const setSsoConnection = ({
  organizationId,
  body,
}: {
  organizationId: number;
  body: ConnectionBody;
}) => call(api.PUT(`${BASE}/connection`, { params: path(organizationId), body }));
export const setRequireSso = ({
  organizationId,
  requireSso,
}: {
  organizationId: number;
  requireSso: boolean;
}) => call(api.PUT(`${BASE}/require`, { params: path(organizationId), body: { require_sso: requireSso } }));
export const addSsoDomain = ({ organizationId, domain }: { organizationId: number; domain: string }) =>
  call(api.POST(`${BASE}/domains`, { params: path(organizationId), body: { domain } }));
export const verifySsoDomain = ({ organizationId, domainId }: { organizationId: number; domainId: number }) =>
  call(
    api.POST(`${BASE}/domains/{domain_id}/verify`, {
      params: { path: { organization_id: organizationId, domain_id: domainId } },
    }),
  );

export const useSsoConnectionMutation = (options?: MutationOptions<typeof setSsoConnection>) =>
  useApiMutation(setSsoConnection, options, (qc, _a, v) => refresh(v.organizationId)(qc));
export const useRequireSsoMutation = (options?: MutationOptions<typeof setRequireSso>) =>
  useApiMutation(setRequireSso, options, (qc, _a, v) => refresh(v.organizationId)(qc));
export const useAddSsoDomainMutation = (options?: MutationOptions<typeof addSsoDomain>) =>
  useApiMutation(addSsoDomain, options, (qc, _a, v) => refresh(v.organizationId)(qc));
export const useVerifySsoDomainMutation = (options?: MutationOptions<typeof verifySsoDomain>) =>
  useApiMutation(verifySsoDomain, options, (qc, _a, v) => refresh(v.organizationId)(qc));
