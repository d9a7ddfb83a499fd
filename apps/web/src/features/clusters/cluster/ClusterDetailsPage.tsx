import * as React from 'react';
import { NavLink, Outlet, useLocation, useParams } from 'react-router';
import { StopClusterButton } from '@/components/clusters/stop-cluster-button';
import { ErrorState } from '@/components/error-state';
import { ClusterJobLinks } from '@/components/jobs/cluster-job-links';
import { NotFoundState } from '@/components/not-found-state';
import { Page } from '@/components/page';
import { StateHeader } from '@/components/state-header';
import { TimeAgo } from '@/components/time-ago';
import { Skeleton } from '@/components/ui/skeleton';
import { type ClusterDetails, useClusterDetailsQuery } from '@/data/clusters/cluster-details-query';
import { useClusterFrontendQuery } from '@/data/clusters/cluster-frontend-query';
import type { ClusterContext } from '@/features/clusters/cluster/cluster-context';
import { isApiError } from '@/lib/api/errors';
import { CLUSTER_TABS, clusterLink } from '@/lib/clusters/links';
import { clusterPollMs } from '@/lib/clusters/states';
import { formatDuration, runtimeSeconds } from '@/lib/format';
import { usePageMeta } from '@/lib/page-meta';
import { paths } from '@/lib/paths';
import { cn } from '@/lib/utils';

function currentTab(pathname: string) {
  const last = pathname.replace(/\/+$/, '').split('/').pop();
  return CLUSTER_TABS.find((tab) => tab.id === last) ?? CLUSTER_TABS[0];
}

function ClusterHeader({ cluster }: { cluster: ClusterDetails }) {
  return (
    <StateHeader
      title={cluster.name}
      titleClassName="font-mono"
      state={cluster.currentState.state}
      reason={cluster.currentState.reason}
      badges={<ClusterJobLinks clusterId={cluster.id} />}
      actions={<StopClusterButton cluster={cluster} />}
      facts={[
        { label: 'Workspace', value: cluster.account.name },
        { label: 'Creator', value: cluster.creator?.username ?? '—' },
        { label: 'Created', value: <TimeAgo value={cluster.created} /> },
        { label: 'Runtime', value: formatDuration(runtimeSeconds(cluster)) },
        { label: 'Workers', value: `${cluster.readyWorkers} / ${cluster.desiredWorkers} ready` },
      ]}
    />
  );
}

function TabNav({ cluster, tab }: { cluster: ClusterDetails; tab: string }) {
  const nav = React.useRef<HTMLElement>(null);
  // On a phone the links scroll sideways: keep the current one in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when the tab changes.
  React.useEffect(() => {
    nav.current
      ?.querySelector('[aria-current=page]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);
  return (
    <nav ref={nav} aria-label="Cluster sections" className="border-b">
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
  if (!valid || (isApiError(failure) && failure.kind === 'notFound'))
    return (
      <NotFoundState
        title="Cluster not found"
        back={{ to: paths.clusters, label: 'Back to the Dashboard' }}
      />
    );
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
      <TabNav cluster={cluster} tab={tab.id} />
      <Outlet context={context} />
    </Page>
  );
}
