import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { type AwsSettings, useAwsSettingsQuery, usePatchAwsSettingsMutation } from '@/data/cloud/aws-setup';
import { setupError, typeList } from '@/features/setup/messages';

/** Step 3 of AWS: what clusters get by default. */
export function AwsSettingsCard({
  account,
  region,
  isAdmin,
}: {
  account: string;
  region: string | null;
  isAdmin: boolean;
}) {
  const settings = useAwsSettingsQuery(account);
  // Here, not in the form: saving gives the form new settings (and a new key), the outcome stays.
  const patch = usePatchAwsSettingsMutation();
  if (!settings.data) return null;
  return (
    <SettingsForm
      key={JSON.stringify(settings.data)}
      account={account}
      region={region}
      settings={settings.data}
      isAdmin={isAdmin}
      patch={patch}
    />
  );
}

function SettingsForm({
  account,
  region,
  settings,
  isAdmin,
  patch,
}: {
  account: string;
  region: string | null;
  settings: AwsSettings;
  isAdmin: boolean;
  patch: ReturnType<typeof usePatchAwsSettingsMutation>;
}) {
  const [workers, setWorkers] = React.useState(settings.workerInstanceTypes.join(', '));
  const [scheduler, setScheduler] = React.useState(settings.schedulerInstanceTypes.join(', '));
  const [spot, setSpot] = React.useState(settings.spot);
  const [fallback, setFallback] = React.useState(settings.spotOnDemandFallback);
  const [disk, setDisk] = React.useState(String(settings.diskSizeGib));
  const amis = settings.amis as Record<string, string>;
  const [ami, setAmi] = React.useState(region ? (amis[region] ?? '') : '');
  const [cidr, setCidr] = React.useState(settings.allowedCidr);
  return (
    <Card>
      <CardHeader>
        <CardTitle>3. Cluster settings</CardTitle>
        <CardDescription>
          Defaults for new clusters; a cluster may ask for its own instance types.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            patch.mutate({
              account,
              body: {
                worker_instance_types: typeList(workers),
                scheduler_instance_types: typeList(scheduler),
                spot,
                spot_on_demand_fallback: fallback,
                disk_size_gib: Number(disk),
                ...(region && ami.trim() && { amis: { ...amis, [region]: ami.trim() } }),
                allowed_cidr: cidr.trim(),
              },
            });
          }}
        >
          <FormAlert>{setupError(patch.error)}</FormAlert>
          <fieldset disabled={!isAdmin} className="grid gap-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Worker instance types" description="First with capacity wins.">
                <Input className="font-mono" value={workers} onChange={(e) => setWorkers(e.target.value)} />
              </FormField>
              <FormField label="Scheduler instance types">
                <Input
                  className="font-mono"
                  value={scheduler}
                  onChange={(e) => setScheduler(e.target.value)}
                />
              </FormField>
              <FormField label="Disk size (GiB)">
                <Input inputMode="numeric" value={disk} onChange={(e) => setDisk(e.target.value)} />
              </FormField>
              <FormField
                label={`Machine image${region ? ` in ${region}` : ''}`}
                description="An AMI with python3 and distributed."
              >
                <Input
                  className="font-mono"
                  placeholder="ami-0123456789abcdef0"
                  value={ami}
                  onChange={(e) => setAmi(e.target.value)}
                />
              </FormField>
              <FormField label="Allowed CIDR">
                <Input className="font-mono" value={cidr} onChange={(e) => setCidr(e.target.value)} />
              </FormField>
            </div>
            <div className="flex flex-wrap gap-6">
              <Label className="flex items-center gap-2 font-normal">
                <Switch checked={spot} onCheckedChange={setSpot} />
                Spot workers
              </Label>
              <Label className="flex items-center gap-2 font-normal">
                <Switch checked={fallback} onCheckedChange={setFallback} disabled={!spot} />
                On demand when spot capacity is short
              </Label>
            </div>
            {isAdmin ? (
              <div className="flex flex-wrap items-center gap-3">
                <SubmitButton pending={patch.isPending} className="w-auto">
                  Save settings
                </SubmitButton>
                {patch.isSuccess ? (
                  <span className="text-muted-foreground text-sm" role="status">
                    Settings saved
                  </span>
                ) : null}
              </div>
            ) : null}
          </fieldset>
        </form>
      </CardContent>
    </Card>
  );
}
