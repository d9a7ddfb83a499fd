import { GlobeIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Button } from '@/components/ui/button';
import { useSsoDomainVerifyMutation } from '@/data/staff/sso-domain-verify-mutation';
import { type PendingSsoDomain, usePendingSsoDomainsQuery } from '@/data/staff/sso-domains-query';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage, serverMessage } from '@/lib/api/errors';

/**
 * SSO domains: the email domains organizations claimed for their own single sign-on that no DNS
 * TXT record has proven yet. Staff who know an organization owns one mark it verified, after a
 * confirmation that says what it lets the organization do.
 */
export function SsoDomainsTab() {
  const domains = usePendingSsoDomainsQuery();
  const verify = useSsoDomainVerifyMutation();
  const [asking, setAsking] = React.useState<PendingSsoDomain | null>(null);
  // The server answers every waiting domain at once; the table pages them here.
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const waiting = domains.data ?? [];

  const columns: DataTableColumn<PendingSsoDomain>[] = [
    {
      id: 'domain',
      header: 'Domain',
      cell: (row) => <span className="font-medium break-all">{row.domain}</span>,
    },
    {
      id: 'organization',
      header: 'Organization',
      cell: (row) => (
        <div className="flex min-w-0 flex-col">
          <span>{row.organization}</span>
          <span className="text-muted-foreground font-mono text-xs">#{row.organizationId}</span>
        </div>
      ),
    },
    {
      id: 'record',
      header: 'TXT record it would publish',
      cell: (row) => (
        <span className="text-muted-foreground font-mono text-xs break-all">{row.txtValue}</span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-1.5 text-right',
      cell: (row) => (
        <Button
          variant="outline"
          size="sm"
          disabled={verify.isPending}
          aria-label={`Mark ${row.domain} verified for ${row.organization}`}
          onClick={() => setAsking(row)}
        >
          Mark verified
        </Button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted-foreground text-sm">
        Domains organizations claimed for their own SSO that no DNS TXT record has proven. Mark one verified
        only when you know the organization owns it.
      </p>
      {domains.isError ? (
        <ErrorState
          title="Could not load the SSO domains"
          message={errorMessage(domains.error)}
          onRetry={() => void domains.refetch()}
        />
      ) : (
        <DataTable
          rows={waiting.slice(page * pageSize, (page + 1) * pageSize)}
          columns={columns}
          getRowId={(row) => String(row.id)}
          loading={domains.isPending}
          empty={
            <EmptyState
              icon={GlobeIcon}
              title="No domain is waiting for a decision"
              className="border-0 py-6"
            />
          }
          total={waiting.length}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
        />
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        tone="default"
        title={asking ? `Mark ${asking.domain} verified?` : ''}
        description={
          asking
            ? `${asking.organization} will sign in everyone with an address at ${asking.domain} through its own SSO connection, and may require SSO of its members. This cannot be undone here; the organization's admins can remove the domain.`
            : ''
        }
        confirmLabel="Mark verified"
        onConfirm={() => {
          if (!asking) return;
          const { id, domain, organization } = asking;
          verify.mutate(id, {
            onSuccess: () => toast.success(`${domain} is verified for ${organization}`),
            onError: (error) => toast.error(serverMessage(error)),
          });
        }}
      />
    </div>
  );
}
