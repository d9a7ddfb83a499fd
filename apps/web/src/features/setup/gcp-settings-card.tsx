import { type GcpSettings, useGcpSettingsQuery, usePatchGcpSettingsMutation } from '@/data/cloud/gcp-setup';
import { AwsSettingsFormCard } from '@/features/setup/aws-settings-form';
import { DefaultsFields, SpotSwitches, useClusterDefaults } from '@/features/setup/cluster-defaults';

/**
 * Step 3 of GCP: what new clusters get when they ask nothing else: machine types (the first
 * Compute Engine has capacity for), Spot workers with or without on-demand fallback, the boot
 * disk's size. The server refuses a type not in its catalogue at its field.
 */
export function GcpSettingsCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  const settings = useGcpSettingsQuery(account, true);
  const patch = usePatchGcpSettingsMutation();
  if (!settings.data) return null;
  // A save answers the new settings: the form starts again from them.
  return (
    <SettingsForm
      key={JSON.stringify(settings.data)}
      account={account}
      settings={settings.data}
      isAdmin={isAdmin}
      patch={patch}
    />
  );
}

function SettingsForm({
  account,
  settings,
  isAdmin,
  patch,
}: {
  account: string;
  settings: GcpSettings;
  isAdmin: boolean;
  patch: ReturnType<typeof usePatchGcpSettingsMutation>;
}) {
  const defaults = useClusterDefaults(settings);
  return (
    <AwsSettingsFormCard
      title="3. Cluster settings"
      description="Defaults for new clusters on Compute Engine; a cluster may ask for its own machine types."
      onSubmit={() => patch.mutate({ account, body: defaults.body() })}
      saveLabel="Save settings"
      savedLabel="Settings saved"
      isAdmin={isAdmin}
      patch={patch}
    >
      <fieldset disabled={!isAdmin} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <DefaultsFields defaults={defaults} kind="machine" diskLabel="Boot disk size (GiB)" />
        </div>
        <SpotSwitches defaults={defaults} />
      </fieldset>
    </AwsSettingsFormCard>
  );
}
