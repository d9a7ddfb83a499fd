import * as React from 'react';

import { FormAlert } from '@/components/form-alert';
import { FieldError, FormField } from '@/components/form-field';
import { SubmitButton } from '@/components/submit-button';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useCloudConfigQuery } from '@/data/cloud/cloud-config-query';
import {
  type SaveCredentials,
  useDeleteCloudCredentialsMutation,
  useSaveCloudCredentialsMutation,
} from '@/data/cloud/cloud-credentials-mutation';
import { useCloudCredentialsQuery } from '@/data/cloud/cloud-credentials-query';
import type { CloudProvider } from '@/data/cloud/keys';
import { CredentialsSummary } from '@/features/setup/credentials-summary';
import { setupError } from '@/features/setup/messages';
import { SetupCard } from '@/features/setup/setup-card';
import { isApiError } from '@/lib/api/errors';

/** A credentials card: what is stored (masked, Delete), and the form that replaces it (admins). */
function CredentialsCard({
  account,
  provider,
  title,
  description,
  isAdmin,
  placed,
  children,
}: {
  account: string;
  provider: CloudProvider;
  title: string;
  description: string;
  isAdmin: boolean;
  /** Fields (camelCase) the form shows a refusal of at the field itself, not above the form. */
  placed?: ReadonlySet<string>;
  children: (
    save: (input: SaveCredentials, onSaved?: () => void) => void,
    state: { pending: boolean; error: unknown },
  ) => React.ReactNode;
}) {
  const stored = useCloudCredentialsQuery(account, provider);
  const save = useSaveCloudCredentialsMutation(account);
  const remove = useDeleteCloudCredentialsMutation(account);
  return (
    <SetupCard title={title} description={description}>
      {stored.data?.configured ? (
        <CredentialsSummary
          credentials={stored.data}
          onDelete={isAdmin ? () => remove.mutate(provider) : undefined}
          deleting={remove.isPending}
        />
      ) : null}
      <FormAlert>{unplaced(save.error, placed) ?? setupError(remove.error)}</FormAlert>
      {save.dialog}
      {remove.dialog}
      {isAdmin
        ? children((input, onSaved) => save.mutate(input, { onSuccess: onSaved }), {
            pending: save.isPending,
            error: save.error,
          })
        : null}
    </SetupCard>
  );
}

/** A refusal not shown at a field of the form (`placed`), in the server's words. */
function unplaced(error: unknown, placed?: ReadonlySet<string>): string | null {
  if (placed && isApiError(error)) {
    const fields = Object.keys(error.fields);
    if (fields.length > 0 && fields.every((f) => placed.has(f))) return null;
  }
  return setupError(error);
}

/** A field's refusal from the server, if it is that field's. */
const refusalOf = (error: unknown, field: string) => (isApiError(error) ? error.fields[field] : undefined);

const GCP_PLACED = new Set(['credentials', 'projectId', 'workloadIdentity']);

export function GcpCredentialsCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  const [key, setKey] = React.useState('');
  const [project, setProject] = React.useState('');
  const [invalid, setInvalid] = React.useState<string | null>(null);
  // Where the server runs on Google Cloud with an account of its own, its operator may use that instead.
  const ownAccount = useCloudConfigQuery().data?.gcp.workloadIdentity === true;
  return (
    <CredentialsCard
      account={account}
      provider="gcp"
      title="1. Service account key"
      description="The key file's JSON (gcloud iam service-accounts keys create). Google is asked to take it, then which of the permissions clusters need it holds in its project: one missing is named here."
      isAdmin={isAdmin}
      placed={GCP_PLACED}
    >
      {(save, { pending, error }) => (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            let parsed: Record<string, unknown>;
            try {
              parsed = JSON.parse(key);
            } catch {
              setInvalid('The key file is not JSON.');
              return;
            }
            setInvalid(null);
            // Once stored, the key leaves the page: the server never answers it again either.
            save(
              {
                provider: 'gcp',
                body: { credentials: parsed, ...(project.trim() && { project_id: project.trim() }) },
              },
              () => setKey(''),
            );
          }}
        >
          <FormField
            label="Service account key (JSON)"
            description="Paste it, or choose the file below."
            error={invalid ?? refusalOf(error, 'credentials')}
          >
            <Textarea
              className="max-h-48 min-h-32 font-mono text-xs"
              spellCheck={false}
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </FormField>
          <FormField label="Key file">
            <Input
              type="file"
              accept=".json,application/json"
              className="sm:w-80"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) setKey(await file.text());
              }}
            />
          </FormField>
          <FormField
            label="Project id"
            description="Optional: checked against the key's."
            error={refusalOf(error, 'projectId')}
          >
            <Input
              className="font-mono sm:w-64"
              value={project}
              onChange={(e) => setProject(e.target.value)}
            />
          </FormField>
          <SubmitButton pending={pending} disabled={!key.trim()} className="w-auto justify-self-start">
            Save GCP credentials
          </SubmitButton>
          {ownAccount ? (
            <div className="grid gap-2 border-t pt-4">
              <p className="text-muted-foreground text-sm" id="gcp-own-account-help">
                This server runs on Google Cloud: as its operator, you may let this workspace's clusters run
                as the server's own service account (workload identity), with no key. Its permissions are
                checked as a key's; the project is the one above, else the server's own.
              </p>
              <Button
                type="button"
                variant="outline"
                className="w-auto justify-self-start"
                disabled={pending}
                aria-describedby={
                  refusalOf(error, 'workloadIdentity') ? 'gcp-own-account-error' : 'gcp-own-account-help'
                }
                onClick={() =>
                  save({
                    provider: 'gcp',
                    body: { workload_identity: true, ...(project.trim() && { project_id: project.trim() }) },
                  })
                }
              >
                Use this server's service account
              </Button>
              <FieldError id="gcp-own-account-error" messages={refusalOf(error, 'workloadIdentity')} />
            </div>
          ) : null}
        </form>
      )}
    </CredentialsCard>
  );
}

const AZURE_FIELDS = [
  ['tenant_id', 'Tenant id'],
  ['client_id', 'Client (application) id'],
  ['client_secret', 'Client secret'],
  ['subscription_id', 'Subscription id'],
  ['resource_group_name', 'Resource group'],
] as const;

export function AzureCredentialsCard({ account, isAdmin }: { account: string; isAdmin: boolean }) {
  const [values, setValues] = React.useState<Record<string, string>>({});
  const set = (field: string) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  return (
    <CredentialsCard
      account={account}
      provider="azure"
      title="Azure service principal"
      description="Checked for its shape. Cumulus runs no Azure clusters yet."
      isAdmin={isAdmin}
    >
      {(save, { pending }) => (
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save({
              provider: 'azure',
              body: {
                credentials: {
                  tenant_id: values.tenant_id ?? '',
                  client_id: values.client_id ?? '',
                  client_secret: values.client_secret ?? '',
                },
                subscription_id: values.subscription_id ?? '',
                resource_group_name: values.resource_group_name ?? '',
              },
            });
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            {AZURE_FIELDS.map(([field, label]) => (
              <FormField key={field} label={label}>
                <Input
                  type={field === 'client_secret' ? 'password' : 'text'}
                  autoComplete="off"
                  className="font-mono"
                  value={values[field] ?? ''}
                  onChange={set(field)}
                />
              </FormField>
            ))}
          </div>
          <SubmitButton pending={pending} className="w-auto justify-self-start">
            Save Azure credentials
          </SubmitButton>
        </form>
      )}
    </CredentialsCard>
  );
}
