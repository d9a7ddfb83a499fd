import { ExternalLinkIcon } from 'lucide-react';
import * as React from 'react';

import { CopyButton } from '@/components/copy-button';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import {
  useReportRoleMutation,
  useSetupAttemptQuery,
  useStartCloudFormationMutation,
} from '@/data/cloud/cf-setup-attempt';
import { useCloudConfigQuery } from '@/data/cloud/cloud-config-query';
import {
  useDeleteCloudCredentialsMutation,
  useSaveCloudCredentialsMutation,
} from '@/data/cloud/cloud-credentials-mutation';
import { useCloudCredentialsQuery } from '@/data/cloud/cloud-credentials-query';
import { CredentialsSummary } from '@/features/setup/credentials-summary';
import { setupError } from '@/features/setup/messages';

/** Step 1 of AWS: access keys, or role assumption through the CloudFormation template Cumulus serves. */
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
              <RoleSetup account={account} />
            </TabsContent>
          </Tabs>
        ) : null}
      </CardContent>
    </Card>
  );
}

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
      <FormAlert>{setupError(save.error)}</FormAlert>
      {save.dialog}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Access key id">
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
          />
        </FormField>
        <FormField label="Secret access key">
          <Input
            type="password"
            autoComplete="off"
            className="font-mono"
            ref={secretInput}
            onChange={(e) => setHasSecret(e.target.value !== '')}
          />
        </FormField>
      </div>
      <FormField label="Default region" id="aws-default-region">
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

function RoleSetup({ account }: { account: string }) {
  const start = useStartCloudFormationMutation();
  const [attemptId, setAttemptId] = React.useState<number | null>(null);
  const attempt = useSetupAttemptQuery(account, attemptId);
  const report = useReportRoleMutation();
  const [roleArn, setRoleArn] = React.useState('');
  const a = attempt.data;
  return (
    <div className="grid gap-4 text-sm">
      <p className="text-muted-foreground">
        Create a role in your account that trusts Cumulus with an external id: no key leaves your account. The
        CloudFormation template below makes it; then give Cumulus the role ARN from the stack's outputs.
      </p>
      <FormAlert>{setupError(start.error) ?? setupError(report.error)}</FormAlert>
      {!a ? (
        <Button
          type="button"
          className="justify-self-start"
          disabled={start.isPending}
          onClick={() => start.mutate({ account }, { onSuccess: (data) => setAttemptId(data.id) })}
        >
          Start CloudFormation setup
        </Button>
      ) : (
        <div className="grid gap-3">
          <dl className="grid gap-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <dt className="text-muted-foreground">Status</dt>
            <dd aria-live="polite">
              {a.state === 'pending'
                ? 'Waiting for the role…'
                : a.state === 'complete'
                  ? 'Complete'
                  : `Failed: ${a.reason}`}
            </dd>
            <dt className="text-muted-foreground">Trusted principal</dt>
            <dd className="flex min-w-0 items-center gap-1 font-mono break-all">
              {a.allowedPrincipal} <CopyButton value={a.allowedPrincipal} />
            </dd>
            <dt className="text-muted-foreground">External id</dt>
            <dd className="flex min-w-0 items-center gap-1 font-mono break-all">
              {a.externalId} <CopyButton value={a.externalId} />
            </dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <a href={a.launchUrl} target="_blank" rel="noreferrer">
                <ExternalLinkIcon aria-hidden="true" />
                Open in AWS CloudFormation
              </a>
            </Button>
            <Button asChild variant="ghost">
              <a href={a.templateUrl} target="_blank" rel="noreferrer">
                View template
              </a>
            </Button>
          </div>
          {a.state !== 'complete' ? (
            <form
              noValidate
              className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
              onSubmit={(event) => {
                event.preventDefault();
                report.mutate({ account, body: { attempt_id: a.id, role_arn: roleArn.trim() } });
              }}
            >
              <FormField label="Role ARN (the stack's RoleArn output)">
                <Input
                  className="font-mono"
                  placeholder={`arn:aws:iam::123456789012:role/${a.roleName}`}
                  value={roleArn}
                  onChange={(e) => setRoleArn(e.target.value)}
                />
              </FormField>
              <SubmitButton pending={report.isPending} disabled={!roleArn} className="w-auto">
                Complete setup
              </SubmitButton>
            </form>
          ) : null}
        </div>
      )}
    </div>
  );
}
