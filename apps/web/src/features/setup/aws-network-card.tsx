import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  useAvailableSubnetsQuery,
  useAvailableVpcsQuery,
  useAwsGlobalQuery,
  useAwsRegionsQuery,
  useSetUpAwsNetworkMutation,
} from '@/data/cloud/aws-setup';
import { useCloudConfigQuery } from '@/data/cloud/cloud-config-query';
import { setupError } from '@/features/setup/messages';

/**
 * Step 2 of AWS: the region, its VPC and subnets (from what the account has), and where Dask's
 * ports may be reached from; Cumulus makes the security group and the instance profile.
 */
export function AwsNetworkCard({ account, enabled }: { account: string; enabled: boolean }) {
  const config = useCloudConfigQuery();
  const global = useAwsGlobalQuery(account);
  const regions = useAwsRegionsQuery(account);
  const [region, setRegion] = React.useState('us-east-1');
  const [vpc, setVpc] = React.useState<string | null>(null);
  const [subnets, setSubnets] = React.useState<string[]>([]);
  const [cidr, setCidr] = React.useState('');
  const vpcs = useAvailableVpcsQuery(account, enabled ? region : null);
  const chosenVpc = vpc ?? vpcs.data?.vpcs.find((v) => v.isDefault)?.vpcId ?? null;
  const available = useAvailableSubnetsQuery(account, enabled ? region : null, chosenVpc);
  const setUp = useSetUpAwsNetworkMutation();
  const current = regions.data?.regions ?? [];

  return (
    <Card aria-disabled={!enabled}>
      <CardHeader>
        <CardTitle>2. Region and network</CardTitle>
        <CardDescription>
          Clusters run in this region's VPC. Only the Dask scheduler and dashboard ports (8786, 8787) are
          opened, and only to the allowed CIDR
          {global.data?.allowedCidr ? ` (now ${global.data.allowedCidr})` : ''}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {current.length > 0 ? (
          <ul className="grid gap-1 text-sm">
            {current.map((r) => (
              <li key={r.id} className="bg-muted/40 rounded-md border px-3 py-2">
                <span className="font-medium">{r.region}</span>
                {r.default ? ' (default)' : ''} · <span className="font-mono break-all">{r.vpcId}</span> ·{' '}
                {r.subnetIds.length} subnet{r.subnetIds.length === 1 ? '' : 's'} ·{' '}
                <span className="font-mono">{r.securityGroupId}</span>
                {[
                  ['', r.amiId],
                  ['arm64 ', r.armAmiId],
                  ['GPU ', r.gpuAmiId],
                ].map(([label, image]) =>
                  image ? (
                    <React.Fragment key={label}>
                      {' '}
                      · {label}
                      <span className="font-mono">{image}</span>
                    </React.Fragment>
                  ) : null,
                )}
              </li>
            ))}
          </ul>
        ) : null}
        {!enabled ? (
          <p className="text-muted-foreground text-sm">Save credentials first.</p>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              setUp.mutate({
                account,
                region: {
                  region: region as never,
                  ...(chosenVpc && { vpc_id: chosenVpc }),
                  ...(subnets.length && { subnet_ids: subnets }),
                },
                allowedCidr: cidr.trim() || undefined,
              });
            }}
          >
            <FormAlert>{setupError(setUp.error) ?? setupError(vpcs.error)}</FormAlert>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Region" id="aws-region">
                <Select
                  value={region}
                  onValueChange={(next) => {
                    setRegion(next);
                    setVpc(null);
                    setSubnets([]);
                  }}
                >
                  <SelectTrigger id="aws-region" className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {(config.data?.aws.supportedRegions ?? ['us-east-1']).map((r) => (
                      <SelectItem key={r} value={r}>
                        {r}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </FormField>
              <FormField
                label="VPC"
                id="aws-vpc"
                description={vpcs.isPending ? 'Listing the VPCs…' : undefined}
              >
                <Select
                  value={chosenVpc ?? ''}
                  onValueChange={(next) => {
                    setVpc(next);
                    setSubnets([]);
                  }}
                >
                  <SelectTrigger id="aws-vpc" className="w-full font-mono">
                    <SelectValue placeholder="Choose a VPC" />
                  </SelectTrigger>
                  <SelectContent>
                    {(vpcs.data?.vpcs ?? []).map((v) => (
                      <SelectItem key={v.vpcId} value={v.vpcId} className="font-mono">
                        {v.vpcId} {v.isDefault ? '(default)' : ''} {v.name ?? ''}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </FormField>
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">
                Subnets{' '}
                <span className="text-muted-foreground font-normal">(none checked: all of the VPC's)</span>
              </legend>
              <div className="grid max-h-48 gap-2 overflow-y-auto sm:grid-cols-2">
                {(available.data?.subnets ?? []).map((s) => (
                  <Label key={s.subnetId} className="flex min-w-0 items-center gap-2 font-normal">
                    <Checkbox
                      checked={subnets.includes(s.subnetId)}
                      onCheckedChange={(on) =>
                        setSubnets((list) =>
                          on ? [...list, s.subnetId] : list.filter((id) => id !== s.subnetId),
                        )
                      }
                    />
                    <span className="truncate font-mono text-xs">
                      {s.subnetId} · {s.availabilityZone} · {s.cidrBlock}
                    </span>
                  </Label>
                ))}
              </div>
            </fieldset>
            <FormField
              label="Allowed CIDR"
              description="Where you connect from; your own address when left empty."
            >
              <Input
                className="font-mono sm:w-64"
                placeholder="203.0.113.7/32"
                value={cidr}
                onChange={(e) => setCidr(e.target.value)}
              />
            </FormField>
            <SubmitButton pending={setUp.isPending} className="w-auto justify-self-start">
              Set up {region}
            </SubmitButton>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
