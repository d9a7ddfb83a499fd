import { useQuery } from '@tanstack/react-query';

import { cloudKeys } from '@/data/cloud/keys';
import { userKeys } from '@/data/user/keys';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';
import { type MutationOptions, useApiMutation } from '@/lib/api/hooks';

export type AwsGlobal = ApiData<'/api/v2/setup/account/{account}/aws/global', 'get'>;
export type AwsRegions = ApiData<'/api/v2/setup/account/{account}/aws/regions', 'get'>;
export type AwsSettings = ApiData<'/api/v2/setup/account/{account}/aws/settings', 'get'>;
export type AwsSettingsPatch = ApiBody<'/api/v2/setup/account/{account}/aws/settings', 'patch'>;
export type AwsRegionInput = ApiBody<
  '/api/v2/setup/account/{account}/aws/regions',
  'post'
>['regions'][number];

const path = (account: string) => ({ params: { path: { account } } });

export function useAwsGlobalQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.awsGlobal(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/setup/account/{account}/aws/global', { ...path(account), signal })),
  });
}

export function useAwsRegionsQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.awsRegions(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/setup/account/{account}/aws/regions', { ...path(account), signal })),
  });
}

export function useAwsSettingsQuery(account: string) {
  return useQuery({
    queryKey: cloudKeys.awsSettings(account),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/setup/account/{account}/aws/settings', { ...path(account), signal })),
  });
}

/**
 * The network step: the account-wide setup (instance profile, the security group in the VPC
 * chosen, which need not be a default one), then the region.
 */
export async function setUpAwsNetwork({
  account,
  region,
  allowedCidr,
}: {
  account: string;
  region: AwsRegionInput;
  allowedCidr?: string;
}) {
  await call(
    api.POST('/api/v2/setup/account/{account}/aws/global', {
      ...path(account),
      body: {
        region: region.region,
        ...(region.vpc_id && { vpc_id: region.vpc_id }),
        ...(allowedCidr && { allowed_cidr: allowedCidr }),
      },
    }),
  );
  return call(
    api.POST('/api/v2/setup/account/{account}/aws/regions', {
      ...path(account),
      body: { regions: [{ ...region, default: true }] },
    }),
  );
}

export function useSetUpAwsNetworkMutation(options?: MutationOptions<typeof setUpAwsNetwork>) {
  return useApiMutation(setUpAwsNetwork, options, (queryClient, _data, { account }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cloudKeys.awsSetup(account) }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.workspaceBackend(account) }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]),
  );
}

export const patchAwsSettings = ({ account, body }: { account: string; body: AwsSettingsPatch }) =>
  call(api.PATCH('/api/v2/setup/account/{account}/aws/settings', { ...path(account), body }));

/** A machine image may let the workspace run clusters on AWS: its regions and backend are read again. */
export function usePatchAwsSettingsMutation(options?: MutationOptions<typeof patchAwsSettings>) {
  return useApiMutation(patchAwsSettings, options, (queryClient, data, { account }) => {
    queryClient.setQueryData(cloudKeys.awsSettings(account), data);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: cloudKeys.awsRegions(account) }),
      queryClient.invalidateQueries({ queryKey: cloudKeys.workspaceBackend(account) }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ]);
  });
}

/** What the account has in a region (admins): VPCs, and a VPC's subnets. */
export function useAvailableVpcsQuery(account: string, region: string | null) {
  return useQuery({
    queryKey: cloudKeys.available(account, 'vpcs', region ?? ''),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/setup/account/{account}/aws/available-vpcs/{region}', {
          params: { path: { account, region: region as never } },
          signal,
        }),
      ),
    enabled: !!region,
  });
}

export function useAvailableSubnetsQuery(account: string, region: string | null, vpcId: string | null) {
  return useQuery({
    queryKey: cloudKeys.available(account, 'subnets', region ?? '', vpcId ?? ''),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/setup/account/{account}/aws/available-subnets', {
          params: { path: { account }, query: { region: region as never, vpc_id: vpcId ?? undefined } },
          signal,
        }),
      ),
    enabled: !!region && !!vpcId,
  });
}
