import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCloudConfigQuery } from '@/data/cloud/cloud-config-query';
import { useGcpRegionsQuery, useGcpSettingsQuery, useSetUpGcpRegionMutation } from '@/data/cloud/gcp-setup';
import { setupError } from '@/features/setup/messages';
import { SetupCard } from '@/features/setup/setup-card';
import { isApiError } from '@/lib/api/errors';

const ANY_ZONE = 'any';
const PLACED = new Set(['zone', 'network']);

/**
 * Step 2 of GCP: the region clusters run in (the default one), the zone tried first and the VPC
 * network; the server refuses a zone of another region at its field. Once set up with a stored
 * key, what clusters use is shown: project, region, network and zone.
 */
export function GcpRegionCard({
  account,
  project,
  enabled,
}: {
  account: string;
  project: string | null;
  enabled: boolean;
}) {
  const config = useCloudConfigQuery();
  const regions = useGcpRegionsQuery(account);
  const current = regions.data?.regions ?? [];
  const home = current.find((r) => r.default) ?? null;
  const settings = useGcpSettingsQuery(account, current.length > 0);
  const [region, setRegion] = React.useState<string | null>(null);
  const [zone, setZone] = React.useState(ANY_ZONE);
  const [network, setNetwork] = React.useState('');
  const setUp = useSetUpGcpRegionMutation();
  const chosen = region ?? home?.region ?? config.data?.gcp.defaultRegion ?? 'us-east1';
  const zones = (config.data?.gcp.supportedZones ?? []).filter((z) => z.startsWith(`${chosen}-`));
  const fieldError = (field: string) => (isApiError(setUp.error) ? setUp.error.fields[field] : undefined);
  const alert =
    isApiError(setUp.error) &&
    Object.keys(setUp.error.fields).length > 0 &&
    Object.keys(setUp.error.fields).every((f) => PLACED.has(f))
      ? null
      : setupError(setUp.error);

  return (
    <SetupCard
      title="2. Region and zone"
      description="Clusters run in this region of the key's project, in the zone chosen first (else spread over the region's zones, each tried in turn when one is out of capacity)."
    >
      {home && project ? (
        <div className="bg-muted/40 grid gap-1 rounded-md border p-3 text-sm" role="status">
          <span className="font-medium">Connected: new clusters run in your GCP project</span>
          <dl className="grid gap-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
            {[
              ['Project', project],
              ['Region', home.region],
              ['Zone', settings.data?.zone ?? 'any of the region'],
              [
                'Network',
                `${home.network ?? 'default'} · subnet ${home.subnet ?? home.network ?? 'default'}`,
              ],
            ].map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="min-w-0 font-mono break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {!enabled ? (
        <p className="text-muted-foreground text-sm">Save the service account key first.</p>
      ) : (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            setUp.mutate({
              account,
              region: chosen,
              zone: zone === ANY_ZONE ? null : zone,
              network: network.trim() || undefined,
            });
          }}
        >
          <FormAlert>{alert}</FormAlert>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Region" id="gcp-region">
              <Select
                value={chosen}
                onValueChange={(next) => {
                  setRegion(next);
                  setZone(ANY_ZONE);
                }}
              >
                <SelectTrigger id="gcp-region" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {(config.data?.gcp.supportedRegions ?? [chosen]).map((r) => (
                    <SelectItem key={r} value={r}>
                      {r}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            <FormField label="Zone" id="gcp-zone" error={fieldError('zone')}>
              <Select value={zone} onValueChange={setZone}>
                <SelectTrigger id="gcp-zone" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ANY_ZONE}>Any zone of {chosen}</SelectItem>
                  {zones.map((z) => (
                    <SelectItem key={z} value={z}>
                      {z}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
          </div>
          <FormField
            label="VPC network"
            description="The project's network clusters use; default when left empty."
            error={fieldError('network')}
          >
            <Input
              className="font-mono sm:w-64"
              placeholder="default"
              value={network}
              onChange={(e) => setNetwork(e.target.value)}
            />
          </FormField>
          <SubmitButton pending={setUp.isPending} className="w-auto justify-self-start">
            Set up {chosen}
          </SubmitButton>
        </form>
      )}
    </SetupCard>
  );
}
