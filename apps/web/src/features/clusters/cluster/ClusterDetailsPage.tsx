import { SearchXIcon } from 'lucide-react';
import * as React from 'react';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Page } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { type ClusterDetails, useClusterDetailsQuery } from '@/data/clusters/cluster-details-query';
import { useClusterFrontendQuery } from '@/data/clusters/cluster-frontend-query';
import type { ClusterContext } from '@/features/clusters/cluster/cluster-context';
import { StopClusterButton } from '@/features/clusters/components/stop-cluster-button';
import { formatDuration, runtimeSeconds, timeAgo } from '@/features/clusters/format';
import { CLUSTER_TABS, clusterLink } from '@/features/clusters/links';
import { clusterPollMs } from '@/features/clusters/states';
import { isApiError } from '@/lib/api/errors';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

function currentTab(pathname: string) {
  const last = pathname.replace(/\/+$/, '').split('/').pop();
  return CLUSTER_TABS.find((tab) => tab.id === last) ?? CLUSTER_TABS[0];
}

function ClusterHeader({ cluster }: { cluster: ClusterDetails }) {
  const formatDateTime = useFormatDateTime();
  const facts = [
    { label: 'Workspace', value: cluster.account.name },
    { label: 'Creator', value: cluster.creator?.username ?? '—' },
    {
      label: 'Created',
      value: (
        <time dateTime={cluster.created} title={formatDateTime(cluster.created)}>
          {timeAgo(cluster.created)}
        </time>
      ),
    },
    { label: 'Runtime', value: formatDuration(runtimeSeconds(cluster)) },
    { label: 'Workers', value: `${cluster.readyWorkers} / ${cluster.desiredWorkers} ready` },
  ];
  return (
    <header className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="truncate font-mono text-2xl font-semibold tracking-tight">{cluster.name}</h1>
            <StateChip state={cluster.currentState.state} title={cluster.currentState.reason || undefined} />
          </div>
          {cluster.currentState.reason ? (
            <p className="text-muted-foreground text-sm">{cluster.currentState.reason}</p>
          ) : null}
        </div>
        <StopClusterButton cluster={cluster} />
      </div>
      <dl className="text-muted-foreground flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {facts.map((fact) => (
          <div key={fact.label} className="flex gap-1.5">
            <dt>{fact.label}</dt>
            <dd className="text-foreground tabular-nums">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

function TabNav({ cluster }: { cluster: ClusterDetails }) {
  return (
    <nav aria-label="Cluster sections" className="border-b">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {CLUSTER_TABS.map((tab) => (
          <li key={tab.id}>
            <NavLink
              to={clusterLink(cluster, tab.id)}
              end
              className={({ isActive }) =>
                cn(
                  'focus-visible:ring-ring/50 inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium outline-none transition-colors focus-visible:ring-[3px]',
                  isActive
                    ? 'border-primary text-foreground'
                    : 'text-muted-foreground hover:text-foreground border-transparent',
                )
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function HeaderSkeleton() {
  return (
    <div role="status" aria-busy="true" className="flex flex-col gap-6">
      <span className="sr-only">Loading…</span>
      <div className="space-y-3">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <Skeleton className="h-10 w-80" />
      <div className="grid gap-4 md:grid-cols-2">
        <Skeleton className="h-48" />
        <Skeleton className="h-48" />
      </div>
    </div>
  );
}

/**
 * A cluster's page (`/clusters/{id}` and its tabs): the header with its state and Stop, the tab
 * links, and the tab. The cluster's workspace comes from the cluster itself (`frontend`), so old
 * links without `?account=` work too.
 */
export function ClusterDetailsPage() {
  const params = useParams();
  const id = Number(params.clusterId);
  const valid = /^\d+$/.test(params.clusterId ?? '') && Number.isSafeInteger(id) && id > 0;
  const { pathname } = useLocation();
  const tab = currentTab(pathname);
  const frontend = useClusterFrontendQuery({ id });
  const clusterRef = React.useMemo(
    () => (frontend.data ? { account: frontend.data.account.slug, id } : null),
    [frontend.data, id],
  );
  // Polled while the cluster is alive.
  const details = useClusterDetailsQuery(
    { ref: clusterRef },
    { refetchInterval: (query) => clusterPollMs(query.state.data?.currentState.state) },
  );
  const cluster = details.data;
  const name = cluster?.name ?? frontend.data?.name;

  usePageMeta({
    title: name ? `${name} · ${tab.label}` : 'Cluster',
    breadcrumbs: [
      { label: 'Dashboard', to: paths.clusters },
      ...(name && cluster ? [{ label: name, to: clusterLink(cluster) }] : []),
      { label: tab.label },
    ],
  });

  const failure = frontend.error ?? details.error;
  if (!valid || (isApiError(failure) && failure.kind === 'notFound')) {
    return (
      <Page>
        <EmptyState
          icon={SearchXIcon}
          title="Cluster not found"
          description="It does not exist, or it belongs to a workspace you are not a member of."
          action={
            <Button asChild variant="outline" size="sm">
              <Link to={paths.clusters}>Back to the Dashboard</Link>
            </Button>
          }
        />
      </Page>
    );
  }
  if (failure && !cluster) {
    return (
      <Page>
        <ErrorState
          title="Could not load this cluster"
          message={failure.message}
          onRetry={() => void (frontend.isError ? frontend.refetch() : details.refetch())}
        />
      </Page>
    );
  }
  if (!cluster || !clusterRef) {
    return (
      <Page>
        <HeaderSkeleton />
      </Page>
    );
  }
  const context: ClusterContext = { cluster, clusterRef };
  return (
    <Page className="gap-5">
      <ClusterHeader cluster={cluster} />
      <TabNav cluster={cluster} />
      <Outlet context={context} />
    </Page>
  );
}
