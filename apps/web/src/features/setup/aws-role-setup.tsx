import { DownloadIcon, ExternalLinkIcon } from 'lucide-react';
import * as React from 'react';

import { CopyButton } from '@/components/copy-button';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import {
  type SetupAttempt,
  useCompleteRoleSetupMutation,
  useSetupAttemptQuery,
  useStartCloudFormationMutation,
} from '@/data/cloud/cf-setup-attempt';
import { setupError } from '@/features/setup/messages';

/**
 * AWS role assumption through CloudFormation. With access keys saved, Cumulus creates the stack
 * itself and follows it until its role replaces the keys; without, the user creates it from the
 * template (downloaded, or a quick-create link where the operator published it in S3) and gives
 * the role ARN back. Replacing credentials while clusters run asks first (the 409 dialogs).
 */
export function RoleSetup({ account, hasKeys }: { account: string; hasKeys: boolean }) {
  const start = useStartCloudFormationMutation(account);
  const [attemptId, setAttemptId] = React.useState<number | null>(null);
  const attempt = useSetupAttemptQuery(account, attemptId);
  const a = attempt.data;
  return (
    <div className="grid gap-4 text-sm">
      <p className="text-muted-foreground">
        A role in your account that trusts Cumulus with an external id: no key leaves your account.{' '}
        {hasKeys
          ? 'Cumulus creates it with CloudFormation using the access keys saved, then uses the role instead of them.'
          : "A CloudFormation stack makes it; then give Cumulus the role ARN from the stack's outputs."}
      </p>
      <FormAlert>{setupError(start.error) ?? setupError(attempt.error)}</FormAlert>
      {start.dialog}
      {!a ? (
        <Button
          type="button"
          className="justify-self-start"
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: (data) => setAttemptId(data.id) })}
        >
          {hasKeys ? 'Create the role with CloudFormation' : 'Start CloudFormation setup'}
        </Button>
      ) : (
        <AttemptDetails account={account} attempt={a} />
      )}
    </div>
  );
}

function status(a: SetupAttempt): string {
  if (a.state === 'complete') return `Complete: Cumulus assumes ${a.roleArn}`;
  if (a.state === 'error') return `Failed: ${a.reason}`;
  if (a.mode === 'console') return 'Waiting for the role…';
  return a.reason || `Creating the stack… (${a.stackStatus ?? 'CREATE_IN_PROGRESS'})`;
}

function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1 font-mono break-all">
      {value} <CopyButton value={value} label={`Copy ${label}`} />
    </span>
  );
}

function AttemptDetails({ account, attempt: a }: { account: string; attempt: SetupAttempt }) {
  return (
    <div className="grid gap-4">
      <dl className="grid gap-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <dt className="text-muted-foreground">Status</dt>
        <dd aria-live="polite">{status(a)}</dd>
        <dt className="text-muted-foreground">Trusted principal</dt>
        <dd className="min-w-0">
          <Copyable value={a.allowedPrincipal} label="principal" />
        </dd>
        <dt className="text-muted-foreground">External id</dt>
        <dd className="min-w-0">
          <Copyable value={a.externalId} label="external id" />
        </dd>
        {a.stackId ? (
          <>
            <dt className="text-muted-foreground">Stack</dt>
            <dd className="min-w-0 font-mono break-all">{a.stackId}</dd>
          </>
        ) : null}
      </dl>
      {a.mode === 'console' && a.state !== 'complete' ? <ConsoleSteps account={account} attempt={a} /> : null}
    </div>
  );
}

/** Making the stack by hand in the CloudFormation console, then giving its role back. */
function ConsoleSteps({ account, attempt: a }: { account: string; attempt: SetupAttempt }) {
  const complete = useCompleteRoleSetupMutation(account);
  const [roleArn, setRoleArn] = React.useState('');
  return (
    <div className="grid gap-4">
      {a.launchUrl ? (
        <Button asChild variant="outline" className="justify-self-start">
          <a href={a.launchUrl} target="_blank" rel="noreferrer">
            <ExternalLinkIcon aria-hidden="true" />
            Open in AWS CloudFormation
          </a>
        </Button>
      ) : null}
      <ol className="grid list-decimal gap-3 pl-5">
        <li>
          <a
            className="text-primary inline-flex items-center gap-1 underline"
            href={a.templateUrl}
            download="cumulus-role.json"
          >
            <DownloadIcon className="size-4" aria-hidden="true" />
            Download the template
          </a>
        </li>
        <li>
          In the{' '}
          <a className="text-primary underline" href={a.consoleUrl} target="_blank" rel="noreferrer">
            CloudFormation console
          </a>
          , create a stack: <span className="font-medium">Choose an existing template</span>, then{' '}
          <span className="font-medium">Upload a template file</span> with the file downloaded.
        </li>
        <li className="grid gap-2">
          <span>Name the stack and fill in its parameters:</span>
          <dl className="grid gap-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <dt className="text-muted-foreground">Stack name</dt>
            <dd className="min-w-0">
              <Copyable value={a.stackName} label="stack name" />
            </dd>
            {Object.entries(a.parameters).map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-muted-foreground">{name}</dt>
                <dd className="min-w-0">
                  <Copyable value={value} label={name} />
                </dd>
              </div>
            ))}
          </dl>
        </li>
        <li>Acknowledge that it creates IAM resources with custom names, and submit it.</li>
        <li>Once the stack is CREATE_COMPLETE, give Cumulus its RoleArn output:</li>
      </ol>
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          complete.mutate({ attempt_id: a.id, role_arn: roleArn.trim() });
        }}
      >
        <FormAlert className="sm:col-span-2">{setupError(complete.error)}</FormAlert>
        {complete.dialog}
        <FormField label="Role ARN (the stack's RoleArn output)">
          <Input
            className="font-mono"
            placeholder={`arn:aws:iam::123456789012:role/${a.roleName}`}
            value={roleArn}
            onChange={(e) => setRoleArn(e.target.value)}
          />
        </FormField>
        <SubmitButton pending={complete.isPending} disabled={!roleArn} className="w-auto">
          Complete setup
        </SubmitButton>
      </form>
    </div>
  );
}
