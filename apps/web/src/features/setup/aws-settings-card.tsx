import * as React from 'react';

import { FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import type { AwsSettings } from '@/data/cloud/aws-setup';
import {
  AwsSettingsFormCard,
  type AwsSettingsPatch,
  WithAwsSettings,
} from '@/features/setup/aws-settings-form';
import { DefaultsFields, SpotSwitches, useClusterDefaults } from '@/features/setup/cluster-defaults';

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
  return (
    <WithAwsSettings account={account} keyOf={(settings) => settings}>
      {(settings, patch) => (
        <SettingsForm account={account} region={region} settings={settings} isAdmin={isAdmin} patch={patch} />
      )}
    </WithAwsSettings>
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
  patch: AwsSettingsPatch;
}) {
  const defaults = useClusterDefaults(settings);
  const amis = settings.amis as Record<string, string>;
  const [ami, setAmi] = React.useState(region ? (amis[region] ?? '') : '');
  const [armAmi, setArmAmi] = React.useState(imageIn(settings.armAmis, region));
  const [gpuAmi, setGpuAmi] = React.useState(imageIn(settings.gpuAmis, region));
  const [cidr, setCidr] = React.useState(settings.allowedCidr);
  return (
    <AwsSettingsFormCard
      title="3. Cluster settings"
      description="Defaults for new clusters; a cluster may ask for its own instance types."
      patch={patch}
      isAdmin={isAdmin}
      saveLabel="Save settings"
      savedLabel="Settings saved"
      onSubmit={() =>
        patch.mutate({
          account,
          body: {
            ...defaults.body(),
            ...(region && ami.trim() && { amis: { ...amis, [region]: ami.trim() } }),
            ...(region && {
              arm_amis: withImage(settings.armAmis, region, armAmi),
              gpu_amis: withImage(settings.gpuAmis, region, gpuAmi),
            }),
            allowed_cidr: cidr.trim(),
          },
        })
      }
    >
      <fieldset disabled={!isAdmin} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <DefaultsFields defaults={defaults} kind="instance" diskLabel="Disk size (GiB)" />
          <FormField
            label={`Machine image${region ? ` in ${region}` : ''}`}
            description="An AMI with python3 and distributed, for x86_64 types."
          >
            <Input
              className="font-mono"
              placeholder="ami-0123456789abcdef0"
              value={ami}
              onChange={(e) => setAmi(e.target.value)}
            />
          </FormField>
          <FormField
            label={`arm64 image${region ? ` in ${region}` : ''}`}
            description="For arm64 (Graviton) types; without one they are not launched."
          >
            <Input
              className="font-mono"
              placeholder="ami-0123456789abcdef0"
              value={armAmi}
              onChange={(e) => setArmAmi(e.target.value)}
            />
          </FormField>
          <FormField
            label={`GPU image${region ? ` in ${region}` : ''}`}
            description="For GPU types, with the NVIDIA driver; empty: the image of their architecture."
          >
            <Input
              className="font-mono"
              placeholder="ami-0123456789abcdef0"
              value={gpuAmi}
              onChange={(e) => setGpuAmi(e.target.value)}
            />
          </FormField>
          <FormField label="Allowed CIDR">
            <Input className="font-mono" value={cidr} onChange={(e) => setCidr(e.target.value)} />
          </FormField>
        </div>
        <SpotSwitches defaults={defaults} />
      </fieldset>
    </AwsSettingsFormCard>
  );
}

type Images = AwsSettings['armAmis'];

/** The image a region has in one of the settings' region → image maps ('' for none). */
const imageIn = (images: Images, region: string | null) =>
  region ? ((images as Record<string, string>)[region] ?? '') : '';

/** The map with the region's image set to what was typed, or removed when nothing was. */
function withImage(images: Images, region: string, typed: string): Images {
  const { [region]: _, ...others } = images as Record<string, string>;
  return (typed.trim() ? { ...others, [region]: typed.trim() } : others) as Images;
}
