import { CheckCircle2Icon, CircleDashedIcon } from 'lucide-react';
import { useId, useState } from 'react';

import { ErrorState } from '@/components/error-state';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import {
  type OrganizationSso,
  useAddSsoDomainMutation,
  useOrganizationSsoQuery,
  useRequireSsoMutation,
  useSsoConnectionMutation,
  useVerifySsoDomainMutation,
} from '@/data/organizations/sso';
import { errorMessage, serverMessage } from '@/lib/api/errors';

/** Single sign-on of an organization (docs/sso.md): its OIDC connection, proven domains, Require SSO. */
export function SsoTab({
  organizationId,
  workspaces,
}: {
  organizationId: number;
  workspaces: OrganizationWorkspace[];
}) {
  const sso = useOrganizationSsoQuery(organizationId);
  if (sso.error) return <ErrorState message={errorMessage(sso.error)} onRetry={() => sso.refetch()} />;
  if (!sso.data) return <LoadingSkeleton variant="cards" rows={2} />;
  return (
    <div className="grid gap-4">
      <ConnectionCard organizationId={organizationId} sso={sso.data} workspaces={workspaces} />
      <DomainsCard organizationId={organizationId} sso={sso.data} />
      <RequireCard organizationId={organizationId} sso={sso.data} />
    </div>
  );
}

type Props = { organizationId: number; sso: OrganizationSso };

function ConnectionCard({
  organizationId,
  sso,
  workspaces,
}: Props & { workspaces: OrganizationWorkspace[] }) {
  const save = useSsoConnectionMutation();
  const [issuer, setIssuer] = useState(sso.connection?.issuer ?? '');
  const [clientId, setClientId] = useState(sso.connection?.clientId ?? '');
  const [secret, setSecret] = useState('');
  const [join, setJoin] = useState<number[]>(sso.connection?.joinWorkspaceIds ?? []);
  const secretSet = sso.connection?.clientSecretSet ?? false;
  const valid = issuer.trim() !== '' && clientId.trim() !== '' && (secretSet || secret !== '');
  return (
    <Card>
      <CardHeader>
        <CardTitle>OpenID Connect connection</CardTitle>
        <CardDescription>
          Register Cumulus with your identity provider (Okta, Entra ID…) with the redirect URI{' '}
          <code className="text-foreground break-all">{sso.redirectUri}</code> and scopes{' '}
          <code className="text-foreground">openid email profile</code>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              {
                organizationId,
                body: {
                  issuer: issuer.trim(),
                  client_id: clientId.trim(),
                  ...(secret ? { client_secret: secret } : {}),
                  join_workspace_ids: join,
                },
              },
              { onSuccess: () => setSecret('') },
            );
          }}
        >
          <FormAlert>{save.isError ? serverMessage(save.error) : null}</FormAlert>
          <FormField label="Issuer URL">
            <Input
              value={issuer}
              onChange={(e) => setIssuer(e.target.value)}
              placeholder="https://acme.okta.com"
            />
          </FormField>
          <FormField label="Client ID">
            <Input value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" />
          </FormField>
          <FormField
            label={secretSet ? 'Client secret (set; enter a new one to replace it)' : 'Client secret'}
          >
            <Input
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              autoComplete="new-password"
            />
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">New members join these workspaces</legend>
            {workspaces.length === 0 && (
              <p className="text-muted-foreground text-sm">
                This organization has no workspaces yet: new members join the organization only.
              </p>
            )}
            {workspaces.map((workspace) => (
              <label key={workspace.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="accent-primary size-4"
                  checked={join.includes(workspace.id)}
                  onChange={(e) =>
                    setJoin((now) =>
                      e.target.checked ? [...now, workspace.id] : now.filter((id) => id !== workspace.id),
                    )
                  }
                />
                {workspace.name}
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit" disabled={!valid || save.isPending}>
              Save connection
            </Button>
            {save.isSuccess ? <span className="text-muted-foreground ml-3 text-sm">Saved.</span> : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function DomainsCard({ organizationId, sso }: Props) {
  const add = useAddSsoDomainMutation();
  const verify = useVerifySsoDomainMutation();
  const [domain, setDomain] = useState('');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email domains</CardTitle>
        <CardDescription>
          People whose address is in a verified domain sign in through your connection. Prove a domain by
          publishing the TXT record shown at the domain, then press Verify (or ask Cumulus staff).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormAlert>
          {add.isError ? serverMessage(add.error) : verify.isError ? serverMessage(verify.error) : null}
        </FormAlert>
        <ul className="grid gap-3">
          {sso.domains.map((row) => (
            <li key={row.id} className="border-border grid gap-2 rounded-md border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{row.domain}</span>
                {row.verified ? (
                  <Badge variant="secondary">
                    <CheckCircle2Icon aria-hidden="true" /> Verified
                    {row.verifiedBy === 'staff' ? ' by staff' : ''}
                  </Badge>
                ) : (
                  <span className="flex items-center gap-2">
                    <Badge variant="outline">
                      <CircleDashedIcon aria-hidden="true" /> Not verified
                    </Badge>
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={verify.isPending}
                      onClick={() => verify.mutate({ organizationId, domainId: row.id })}
                    >
                      Verify {row.domain}
                    </Button>
                  </span>
                )}
              </div>
              {row.verified ? null : (
                <dl className="text-muted-foreground grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-3">
                  <dt>TXT record at</dt>
                  <dd className="text-foreground font-mono break-all">{row.txtName}</dd>
                  <dt>Value</dt>
                  <dd className="text-foreground font-mono break-all">{row.txtValue}</dd>
                </dl>
              )}
            </li>
          ))}
        </ul>
        <form
          className="flex flex-wrap items-end gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            add.mutate({ organizationId, domain: domain.trim() }, { onSuccess: () => setDomain('') });
          }}
        >
          <FormField label="Domain" className="min-w-56 flex-1">
            <Input value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="example.com" />
          </FormField>
          <Button type="submit" variant="outline" disabled={domain.trim() === '' || add.isPending}>
            Add domain
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function RequireCard({ organizationId, sso }: Props) {
  const requireSso = useRequireSsoMutation();
  const id = useId();
  const ready = sso.connection !== null && sso.domains.some((d) => d.verified);
  return (
    <Card>
      <CardContent className="grid gap-2">
        <div className="flex items-center gap-3">
          <Switch
            id={id}
            checked={sso.requireSso}
            disabled={!ready || requireSso.isPending}
            onCheckedChange={(on) => requireSso.mutate({ organizationId, requireSso: on })}
          />
          <Label htmlFor={id}>Require SSO</Label>
        </div>
        <p className="text-muted-foreground text-sm">
          {ready
            ? 'Members then sign in only through your connection: not with a password, Google or GitHub.'
            : 'Set a connection and verify a domain first.'}
        </p>
        <FormAlert>{requireSso.isError ? serverMessage(requireSso.error) : null}</FormAlert>
      </CardContent>
    </Card>
  );
}
