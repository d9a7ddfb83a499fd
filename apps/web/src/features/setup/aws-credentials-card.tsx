import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCloudConfigQuery } from '@/data/cloud/cloud-config-query';
import {
  useDeleteCloudCredentialsMutation,
  useSaveCloudCredentialsMutation,
} from '@/data/cloud/cloud-credentials-mutation';
import { useCloudCredentialsQuery } from '@/data/cloud/cloud-credentials-query';
import { RoleSetup } from '@/features/setup/aws-role-setup';
import { CredentialsSummary } from '@/features/setup/credentials-summary';
import { setupError } from '@/features/setup/messages';

/** Step 1 of AWS: access keys, or role assumption through the CloudFormation template Cumulus serves (aws-role-setup.tsx). */
export function AwsCredentialsCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  const credentials = useCloudCredentialsQuery(account, 'aws');
  const remove = useDeleteCloudCredentialsMutation(account);
  const configured = credentials.data?.configured ?? false;
  return (
    <Card>
      <CardHeader>
        <CardTitle>1. Credentials</CardTitle>
        <CardDescription>
          Cumulus checks them with AWS (sts:GetCallerIdentity), keeps them encrypted and shows them masked.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {credentials.data?.configured ? (
          <CredentialsSummary
            credentials={credentials.data}
            onDelete={isAdmin ? () => remove.mutate('aws') : undefined}
            deleting={remove.isPending}
          />
        ) : null}
        <FormAlert>{setupError(remove.error)}</FormAlert>
        {remove.dialog}
        {isAdmin ? (
          <Tabs defaultValue="keys">
            <TabsList>
              <TabsTrigger value="keys">Access keys</TabsTrigger>
              <TabsTrigger value="role">Role assumption</TabsTrigger>
            </TabsList>
            <TabsContent value="keys" className="pt-3">
              <KeysForm account={account} replacing={configured} />
            </TabsContent>
            <TabsContent value="role" className="pt-3">
              <RoleSetup account={account} hasKeys={credentials.data?.kind === 'keys'} />
            </TabsContent>
          </Tabs>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The form's labels, by the fields of the request (a refusal names the field as labelled here). */
const KEY_LABELS = {
  aws_access_key_id: 'Access key ID',
  aws_secret_access_key: 'Secret access key',
  default_region: 'Default region',
};

function KeysForm({ account, replacing }: { account: string; replacing: boolean }) {
  const config = useCloudConfigQuery();
  const save = useSaveCloudCredentialsMutation(account);
  const [keyId, setKeyId] = React.useState('');
  // The secret stays out of React state and of the DOM's attributes (a controlled input mirrors
  // its value into the `value` attribute): only the input element holds it, cleared once saved.
  const secretInput = React.useRef<HTMLInputElement>(null);
  const [hasSecret, setHasSecret] = React.useState(false);
  const [region, setRegion] = React.useState('us-east-1');
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const secret = secretInput.current?.value ?? '';
    save.mutate(
      {
        provider: 'aws',
        body: {
          credentials: { aws_access_key_id: keyId.trim(), aws_secret_access_key: secret },
          default_region: region as never,
        },
      },
      {
        onSuccess: () => {
          if (secretInput.current) secretInput.current.value = '';
          setHasSecret(false);
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormAlert>{setupError(save.error, KEY_LABELS)}</FormAlert>
      {save.dialog}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={KEY_LABELS.aws_access_key_id}>
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
          />
        </FormField>
        <FormField label={KEY_LABELS.aws_secret_access_key}>
          <Input
            type="password"
            autoComplete="off"
            className="font-mono"
            ref={secretInput}
            onChange={(e) => setHasSecret(e.target.value !== '')}
          />
        </FormField>
      </div>
      <FormField label={KEY_LABELS.default_region} id="aws-default-region">
        <Select value={region} onValueChange={setRegion}>
          <SelectTrigger id="aws-default-region" className="w-full sm:w-64">
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
      <SubmitButton
        pending={save.isPending}
        disabled={!keyId || !hasSecret}
        className="w-auto justify-self-start"
      >
        {replacing ? 'Replace credentials' : 'Save credentials'}
      </SubmitButton>
    </form>
  );
}
