import { Trash2Icon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import type { CloudCredentials } from '@/data/cloud/cloud-credentials-query';

// The summary's keys arrive camelCased, as every answer does.
const LABELS: Record<string, string> = {
  awsAccessKeyId: 'Access key',
  account: 'Account',
  arn: 'Identity',
  roleArn: 'Role',
  projectId: 'Project',
  clientEmail: 'Service account',
  privateKeyId: 'Key id',
  tenantId: 'Tenant',
  clientId: 'Client',
  subscriptionId: 'Subscription',
  resourceGroupName: 'Resource group',
};

/** The stored credentials as the server shows them (masked), with Delete for admins. */
export function CredentialsSummary({
  credentials,
  onDelete,
  deleting,
}: {
  credentials: CloudCredentials;
  onDelete?: () => void;
  deleting?: boolean;
}) {
  const rows = Object.entries(credentials.summary).filter(([key, value]) => LABELS[key] && value);
  return (
    <div className="bg-muted/40 grid gap-3 rounded-md border p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">
          {credentials.kind === 'role'
            ? 'Role assumption'
            : credentials.kind === 'workload_identity'
              ? "This server's own service account"
              : 'Credentials'}{' '}
          saved
          {credentials.defaultRegion ? ` · ${credentials.defaultRegion}` : ''}
        </span>
        {onDelete ? (
          <Button type="button" variant="outline" size="sm" onClick={onDelete} disabled={deleting}>
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
        ) : null}
      </div>
      <dl className="grid gap-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
        {rows.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="text-muted-foreground">{LABELS[key]}</dt>
            <dd className="min-w-0 font-mono break-all">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
