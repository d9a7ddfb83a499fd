import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { userKeys } from '@/data/user/keys';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type GcpRegions = ApiData<'/api/v2/setup/account/{account}/gcp/regions', 'get'>;
export type GcpSettings = ApiData<'/api/v2/setup/account/{account}/gcp/settings', 'get'>;
export type GcpSettingsPatch = ApiBody<'/api/v2/setup/account/{account}/gcp/settings', 'patch'>;

const path = (account: string) => ({ params: { path: { account } } });

export function useGcpRegionsQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.gcpRegions(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/setup/account/{account}/gcp/regions', { ...path(account), signal })),
  });
}

export function useGcpSettingsQuery(account: string, enabled: boolean) {
  return useQuery({
    queryKey: cloudKeys.gcpSettings(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/setup/account/{account}/gcp/settings', { ...path(account), signal })),
    enabled,
  });
}

/**
 * The region step of GCP: the network (and its target tags) for the whole project, the region as
 * the default one, then the zone launches try first (none: spread over the region's zones).
 */
export async function setUpGcpRegion({
  account,
  region,
  zone,
  network,
}: {
  account: string;
  region: string;
  zone: string | null;
  network?: string;
}) {
  await call(
    api.POST('/api/v2/setup/account/{account}/gcp/global', {
      ...path(account),
      body: network ? { network } : {},
    }),
  );
  const regions = await call(
    api.POST('/api/v2/setup/account/{account}/gcp/regions', {
      ...path(account),
      body: { regions: [{ region: region as never, default: true }] },
    }),
  );
  if (zone)
    await call(
      api.PATCH('/api/v2/setup/account/{account}/gcp/settings', { ...path(account), body: { zone } }),
    );
  return regions;
}

export function useSetUpGcpRegionMutation(options?: MutationOptions<typeof setUpGcpRegion>) {
  return useApiMutation(setUpGcpRegion, options, (queryClient, _data, { account }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cloudKeys.gcpSetup(account) }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.workspaceBackend(account) }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]),
  );
}

export const patchGcpSettings = ({ account, body }: { account: string; body: GcpSettingsPatch }) =>
  call(api.PATCH('/api/v2/setup/account/{account}/gcp/settings', { ...path(account), body }));

/** The defaults of new clusters on GCP (machine types, Spot, disk): the answer is the settings now. */
export function usePatchGcpSettingsMutation(options?: MutationOptions<typeof patchGcpSettings>) {
  return useApiMutation(patchGcpSettings, options, (queryClient, data, { account }) => {
    queryClient.setQueryData(cloudKeys.gcpSettings(account), data);
  });
}
