import { PackageIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page, PageHeader } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { useAliasBuildsQuery } from '@/data/software/alias-builds-query';
import { useAliasDeleteMutation } from '@/data/software/alias-delete-mutation';
import { useAliasQuery } from '@/data/software/alias-query';
import type { Build } from '@/data/software/aliases-query';
import { errorMessage, serverMessage } from '@/lib/api/errors';
import { formatBytes } from '@/lib/format';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { useFormatDateTime } from '@/lib/preferences';
import { buildLink } from '@/lib/software/links';

const BUILDING_POLL_MS = 2_000;

/** `/software/alias/{aliasId}/account/{accountSlug}`: an environment and its builds, newest first. */
export function AliasPage() {
  const params = useParams();
  const ref = { account: params.accountSlug ?? '', id: Number(params.aliasId) };
  const alias = useAliasQuery(ref);
  const builds = useAliasBuildsQuery(ref, {
    refetchInterval: (query) =>
      (query.state.data?.items ?? []).some((b) => b.state === 'queued' || b.state === 'building')
        ? BUILDING_POLL_MS
        : false,
  });
  const name = alias.data?.name ?? `#${ref.id}`;
  usePageMeta({
    title: `Software Environments - ${name}`,
    breadcrumbs: [{ label: 'Software Environments', to: paths.software }, { label: name }],
  });
  const formatDateTime = useFormatDateTime();
  const [confirming, setConfirming] = React.useState(false);

  if (alias.isError)
    return (
      <Page>
        <ErrorState
          title="Could not load this environment"
          message={errorMessage(alias.error)}
          onRetry={() => void alias.refetch()}
        />
      </Page>
    );
  if (alias.isPending)
    return (
      <Page>
        <LoadingSkeleton variant="table" columns={5} />
      </Page>
    );

  const link = (build: Build) => buildLink({ aliasId: ref.id, accountSlug: ref.account, buildId: build.id });
  const columns: DataTableColumn<Build>[] = [
    {
      id: 'id',
      header: 'Build',
      cell: (build) => (
        <Link
          to={link(build)}
          className="hover:text-primary font-mono font-medium underline-offset-4 hover:underline"
        >
          #{build.id}
        </Link>
      ),
    },
    {
      id: 'state',
      header: 'State',
      cell: (build) => (
        <div className="flex min-w-0 flex-col gap-1">
          <StateChip state={build.archived ? 'archived' : build.state} title={build.reason || undefined} />
          {build.reason ? (
            <span className="text-muted-foreground max-w-md truncate text-xs">{build.reason}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'spec',
      header: 'Spec',
      cell: (build) => <span className="font-mono text-xs">#{build.specId}</span>,
    },
    {
      id: 'packages',
      header: 'Packages',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (build) => (build.state === 'built' ? build.packages.length : '—'),
    },
    {
      id: 'size',
      header: 'Size',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums text-muted-foreground',
      cell: (build) => formatBytes(build.sizeBytes),
    },
    {
      id: 'created',
      header: 'Created',
      cell: (build) => <span className="text-muted-foreground">{formatDateTime(build.created)}</span>,
    },
  ];
  const rows = builds.data?.items ?? [];

  return (
    <Page>
      <PageHeader
        title={alias.data.name}
        description={`${alias.data.account.name} · ${alias.data.specCount} spec${alias.data.specCount === 1 ? '' : 's'} · ${formatBytes(alias.data.diskBytes)} on disk${alias.data.packageSync ? ' · synced from a local environment' : ''}`}
        actions={
          <Button variant="outline" onClick={() => setConfirming(true)}>
            <Trash2Icon />
            Delete
          </Button>
        }
      />
      {builds.isError ? (
        <ErrorState
          title="Could not load builds"
          message={errorMessage(builds.error)}
          onRetry={() => void builds.refetch()}
        />
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          getRowId={(build) => String(build.id)}
          loading={builds.isPending}
          total={builds.data?.count ?? 0}
          page={0}
          pageSize={100}
          onPageChange={() => {}}
          onPageSizeChange={() => {}}
          empty={<EmptyState icon={PackageIcon} title="No builds yet" className="border-0 py-6" />}
        />
      )}
      <DeleteAliasDialog
        open={confirming}
        onOpenChange={setConfirming}
        account={ref.account}
        name={alias.data.name}
      />
    </Page>
  );
}

function DeleteAliasDialog({
  open,
  onOpenChange,
  account,
  name,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  account: string;
  name: string;
}) {
  const navigate = useNavigate();
  const remove = useAliasDeleteMutation({
    onSuccess: () => {
      toast.success(`Deleted ${name}`);
      navigate(paths.software);
    },
    onError: (error) => toast.error(serverMessage(error)),
  });
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {name}?</AlertDialogTitle>
          <AlertDialogDescription>
            Its specs, builds and logs go; running clusters keep their environment until they stop.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={remove.isPending}
            onClick={(event) => {
              event.preventDefault();
              remove.mutate({ account, name });
            }}
          >
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
