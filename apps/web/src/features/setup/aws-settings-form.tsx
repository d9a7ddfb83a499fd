import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { SubmitButton } from '@/components/submit-button';
import { type AwsSettings, useAwsSettingsQuery, usePatchAwsSettingsMutation } from '@/data/cloud/aws-setup';
import { setupError } from '@/features/setup/messages';
import { SetupCard } from '@/features/setup/setup-card';

export type AwsSettingsPatch = ReturnType<typeof usePatchAwsSettingsMutation>;

/**
 * Loads the workspace's AWS settings and renders a form of them, keyed by `keyOf(settings)`: a
 * save gives new settings and the form starts again from them. The save lives here, not in the
 * form, so its outcome ("saved", an error) stays across that restart.
 */
export function WithAwsSettings({
  account,
  keyOf,
  children,
}: {
  account: string;
  keyOf: (settings: AwsSettings) => unknown;
  children: (settings: AwsSettings, patch: AwsSettingsPatch) => React.ReactElement;
}) {
  const settings = useAwsSettingsQuery(account);
  const patch = usePatchAwsSettingsMutation();
  if (!settings.data) return null;
  return (
    <React.Fragment key={JSON.stringify(keyOf(settings.data))}>
      {children(settings.data, patch)}
    </React.Fragment>
  );
}

/**
 * A step of a cloud's setup that edits some of its settings (AWS's, GCP's): the card, the form
 * with the save's error on top, the fields (`children`), then for admins the save button and "saved".
 */
export function AwsSettingsFormCard({
  title,
  description,
  patch,
  isAdmin,
  saveLabel,
  savedLabel,
  onSubmit,
  children,
}: {
  title: string;
  description: React.ReactNode;
  patch: Pick<AwsSettingsPatch, 'error' | 'isPending' | 'isSuccess'>;
  isAdmin: boolean;
  saveLabel: string;
  savedLabel: string;
  onSubmit: () => void;
  children: React.ReactNode;
}) {
  return (
    <SetupCard title={title} description={description} plain>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <FormAlert>{setupError(patch.error)}</FormAlert>
        {children}
        {isAdmin ? (
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton pending={patch.isPending} className="w-auto">
              {saveLabel}
            </SubmitButton>
            {patch.isSuccess ? (
              <span className="text-muted-foreground text-sm" role="status">
                {savedLabel}
              </span>
            ) : null}
          </div>
        ) : null}
      </form>
    </SetupCard>
  );
}
