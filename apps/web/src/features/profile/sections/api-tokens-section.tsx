import { KeyRoundIcon, PlusIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';

import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Button } from '@/components/ui/button';
import { useApiTokenRevokeMutation } from '@/data/api-tokens/api-token-revoke-mutation';
import { type ApiToken, activeTokens, useApiTokensQuery } from '@/data/api-tokens/api-tokens-query';
import { CreateTokenDialog } from '@/features/profile/sections/create-token-dialog';
import { SectionCard } from '@/features/profile/sections/section-card';
import { errorMessage } from '@/lib/api/errors';
import { useFormatDateTime } from '@/lib/preferences';

export const CREATE_TOKEN_PARAM = 'createTokenDialog';
export const REVOKE_ERROR = 'Error from server revoking token';

function RevokeButton({ token }: { token: ApiToken }) {
  const revoke = useApiTokenRevokeMutation();
  if (revoke.isSuccess) return <span className="text-muted-foreground text-sm">Revoked</span>;
  return (
    <div className="flex items-center justify-end gap-3">
      {revoke.isError ? (
        <span role="alert" className="text-destructive text-xs">
          {REVOKE_ERROR}
        </span>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        disabled={revoke.isPending}
        onClick={() => revoke.mutate(token.identifier)}
        aria-label={`Revoke token ${token.label || token.identifier}`}
      >
        {revoke.isPending ? 'Revoking…' : 'Revoke'}
      </Button>
    </div>
  );
}

/** API Tokens: the active tokens, newest first, a create dialog and revoke buttons. */
export function ApiTokensSection() {
  const tokens = useApiTokensQuery({ select: activeTokens });
  const format = useFormatDateTime();
  const [params, setParams] = useSearchParams();
  const dialogOpen = params.get(CREATE_TOKEN_PARAM) === 'true';
  const setDialogOpen = (open: boolean) =>
    setParams(
      (current) => {
        if (open) current.set(CREATE_TOKEN_PARAM, 'true');
        else current.delete(CREATE_TOKEN_PARAM);
        return current;
      },
      { replace: true },
    );

  const columns: DataTableColumn<ApiToken>[] = [
    {
      id: 'label',
      header: 'Label',
      cell: (token) => token.label || <span className="text-muted-foreground">Unlabelled</span>,
    },
    {
      id: 'identifier',
      header: 'Identifier',
      cell: (token) => <code className="font-mono text-xs">{token.identifier}</code>,
    },
    { id: 'created', header: 'Created', cell: (token) => format(token.created), className: 'tabular-nums' },
    {
      id: 'expiry',
      header: 'Expires',
      cell: (token) => (token.expiry ? format(token.expiry) : 'Never'),
      className: 'tabular-nums',
    },
    {
      id: 'lastUsed',
      header: 'Last used',
      cell: (token) => (token.lastUsed ? format(token.lastUsed) : 'Never'),
      className: 'tabular-nums',
    },
    {
      id: 'revoke',
      header: <span className="sr-only">Actions</span>,
      cell: (token) => <RevokeButton token={token} />,
    },
  ];

  return (
    <SectionCard
      id="api-tokens"
      title="API Tokens"
      description="Long-lived tokens for scripts, CI and the Python client. Only active tokens are listed."
      actions={
        <Button size="sm" onClick={() => setDialogOpen(true)}>
          <PlusIcon aria-hidden="true" />
          Create token
        </Button>
      }
      className="p-0 sm:p-0 border-0 bg-transparent"
    >
      {tokens.isError ? (
        <ErrorState
          title="Could not load your API tokens"
          message={errorMessage(tokens.error)}
          onRetry={() => void tokens.refetch()}
          retrying={tokens.isFetching}
        />
      ) : (
        <DataTable
          rows={tokens.data ?? []}
          columns={columns}
          getRowId={(token) => token.identifier}
          loading={tokens.isPending}
          empty={
            <EmptyState
              icon={KeyRoundIcon}
              title="No active API tokens"
              description="Create one to use Cumulus from a script or the Python client."
              className="border-0 py-6"
            />
          }
          page={0}
          pageSize={tokens.data?.length || 1}
          total={0}
          onPageChange={() => {}}
        />
      )}
      <CreateTokenDialog open={dialogOpen} onOpenChange={setDialogOpen} />
    </SectionCard>
  );
}
