import * as React from 'react';

import { FormField } from '@/components/form-field';
import { Textarea } from '@/components/ui/textarea';
import type { AwsSettings } from '@/data/cloud/aws-setup';
import {
  AwsSettingsFormCard,
  type AwsSettingsPatch,
  WithAwsSettings,
} from '@/features/setup/aws-settings-form';
import { bucketProblem, typeList } from '@/features/setup/messages';

/** Step 4 of AWS: the S3 buckets cluster machines may use (the instance role's policy). */
export function AwsDataAccessCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  return (
    <WithAwsSettings account={account} keyOf={(s) => [s.s3ReadBuckets, s.s3ReadWriteBuckets]}>
      {(settings, patch) => (
        <BucketsForm account={account} settings={settings} isAdmin={isAdmin} patch={patch} />
      )}
    </WithAwsSettings>
  );
}

function BucketsForm({
  account,
  settings,
  isAdmin,
  patch,
}: {
  account: string;
  settings: AwsSettings;
  isAdmin: boolean;
  patch: AwsSettingsPatch;
}) {
  const [read, setRead] = React.useState(settings.s3ReadBuckets.join('\n'));
  const [readWrite, setReadWrite] = React.useState(settings.s3ReadWriteBuckets.join('\n'));
  const [checked, setChecked] = React.useState(false);
  const readError = checked ? bucketProblem(typeList(read)) : null;
  const readWriteError = checked ? bucketProblem(typeList(readWrite)) : null;
  return (
    <AwsSettingsFormCard
      title="4. Data access"
      description="The S3 buckets cluster machines may use through their instance role. Nothing else is allowed; with no bucket named, the role has no permissions at all."
      patch={patch}
      isAdmin={isAdmin}
      saveLabel="Save data access"
      savedLabel="Data access saved"
      onSubmit={() => {
        setChecked(true);
        const body = { s3_read_buckets: typeList(read), s3_read_write_buckets: typeList(readWrite) };
        if (bucketProblem(body.s3_read_buckets) || bucketProblem(body.s3_read_write_buckets)) return;
        patch.mutate({ account, body });
      }}
    >
      <fieldset disabled={!isAdmin} className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Buckets to read"
          description="One bucket name a line (or separated by commas)."
          error={readError}
        >
          <Textarea
            className="min-h-24 font-mono"
            placeholder="team-datasets"
            value={read}
            onChange={(e) => setRead(e.target.value)}
          />
        </FormField>
        <FormField
          label="Buckets to read and write"
          description="Objects here may be written and deleted too."
          error={readWriteError}
        >
          <Textarea
            className="min-h-24 font-mono"
            placeholder="team-results"
            value={readWrite}
            onChange={(e) => setReadWrite(e.target.value)}
          />
        </FormField>
      </fieldset>
    </AwsSettingsFormCard>
  );
}
