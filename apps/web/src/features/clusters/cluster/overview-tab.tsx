import { ActivityIcon, ExternalLinkIcon, ListChecksIcon } from 'lucide-react';
import { Link } from 'react-router';
import { ClusterAlerts } from '@/components/clusters/cluster-alerts';
import { CodeBlock } from '@/components/code-block';
import { CopyButton } from '@/components/copy-button';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Fact } from '@/components/fact';
import { StateChip, stateTone } from '@/components/state-chip';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useClusterAlertsQuery } from '@/data/clusters/cluster-alerts-query';
import { type StateRecord, stateMark, useClusterStatesQuery } from '@/data/clusters/cluster-states-query';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { StopTimers } from '@/features/clusters/cluster/stop-timers';
import { errorMessage } from '@/lib/api/errors';
import { clusterLink } from '@/lib/clusters/links';
import { connectSnippet } from '@/lib/clusters/snippets';
import { clusterPollMs, clusterStateSentence, hasEnded } from '@/lib/clusters/states';
import { durationInWords } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

const DOT_BY_TONE = {
  success: 'bg-success',
  progress: 'bg-warning',
  warning: 'bg-warning',
  neutral: 'bg-muted-foreground',
  error: 'bg-destructive',
} as const;

/** The cluster's own state records, oldest first, as a vertical timeline. */
function StateTimeline({ records }: { records: StateRecord[] }) {
  const formatDateTime = useFormatDateTime();
  if (records.length === 0) return <p className="text-muted-foreground text-sm">No state changes yet.</p>;
  return (
    <ol aria-label="State timeline" className="relative grid gap-4">
      {records.map((record, index) => (
        <li key={record.id} className="relative grid grid-cols-[1rem_minmax(0,1fr)] gap-3">
          {index < records.length - 1 ? (
            <span aria-hidden="true" className="bg-border absolute top-4 bottom-[-1rem] left-[7px] w-px" />
          ) : null}
          <span
            aria-hidden="true"
            className={cn(
              'ring-card mt-1 size-3.5 rounded-full ring-4',
              DOT_BY_TONE[stateTone(record.state)],
            )}
          />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <StateChip state={record.state} />
              <time
                dateTime={record.updated}
                className="text-muted-foreground font-mono text-xs tabular-nums"
              >
                {formatDateTime(record.updated)}
              </time>
            </div>
            {record.reason ? (
              <p className="text-muted-foreground mt-1 text-sm break-words">{record.reason}</p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Overview: how to connect, where the scheduler is, and how the cluster got here. */
export function ClusterOverviewTab() {
  const { cluster, clusterRef } = useClusterContext();
  const polling = { refetchInterval: clusterPollMs(cluster.currentState.state) };
  const states = useClusterStatesQuery({ ref: clusterRef, at: stateMark(cluster) }, polling);
  const alerts = useClusterAlertsQuery({ ref: clusterRef }, polling);
  const address = cluster.schedulerAddress ?? cluster.scheduler?.address ?? null;
  const dashboard = cluster.scheduler?.dashboardAddress ?? null;
  const tags = Object.entries(cluster.tags);

  return (
    // Columns of minmax(0, …): a long snippet scrolls inside its block instead of widening the page.
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      {alerts.data?.length ? (
        <div className="lg:col-span-2">
          <ClusterAlerts alerts={alerts.data} />
        </div>
      ) : null}
      <div className="grid min-w-0 grid-cols-1 content-start gap-5">
        <Card>
          <CardHeader>
            <CardTitle>Connect from Python</CardTitle>
            <CardDescription>
              {hasEnded(cluster.currentState.state)
                ? `${clusterStateSentence(cluster.name, cluster.currentState.state)}: this starts a new cluster of the same name.`
                : 'Attaches to this cluster by name; closing the client leaves it running until its idle timeout.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <CodeBlock
              code={connectSnippet(cluster.account.slug, cluster.name)}
              label="Python"
              copyLabel="Copy connect snippet"
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>State timeline</CardTitle>
            <CardDescription>Every state the cluster went through, and why.</CardDescription>
          </CardHeader>
          <CardContent>
            {states.isError ? (
              <ErrorState message={errorMessage(states.error)} onRetry={() => void states.refetch()} />
            ) : states.isPending ? (
              <div role="status" aria-busy="true" className="grid gap-3">
                <span className="sr-only">Loading…</span>
                <Skeleton className="h-6 w-48" />
                <Skeleton className="h-6 w-56" />
                <Skeleton className="h-6 w-40" />
              </div>
            ) : (
              <StateTimeline records={states.data.cluster ?? []} />
            )}
          </CardContent>
        </Card>
      </div>
      <div className="grid min-w-0 grid-cols-1 content-start gap-5">
        <Card>
          <CardHeader>
            <CardTitle>Scheduler</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="divide-y">
              <Fact label="State">
                {cluster.scheduler ? (
                  <StateChip
                    state={cluster.scheduler.currentState.state}
                    title={cluster.scheduler.currentState.reason || undefined}
                  />
                ) : (
                  <span className="text-muted-foreground">Not launched yet</span>
                )}
              </Fact>
              <Fact label="Address">
                {address ? (
                  <span className="flex items-center gap-1">
                    <code className="truncate font-mono text-xs">{address}</code>
                    <CopyButton value={address} label="Copy scheduler address" className="size-7" />
                  </span>
                ) : (
                  <span className="text-muted-foreground">Known once the scheduler starts</span>
                )}
              </Fact>
              <Fact label="Dashboard">
                {dashboard ? (
                  <a
                    href={dashboard}
                    target="_blank"
                    rel="noreferrer"
                    className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
                  >
                    Open Dask dashboard
                    <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
                  </a>
                ) : (
                  <span className="text-muted-foreground inline-flex flex-wrap items-center gap-1.5">
                    No dashboard:
                    <Link
                      to={clusterLink(cluster, 'metrics')}
                      className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
                    >
                      <ActivityIcon className="size-3.5" aria-hidden="true" />
                      See its metrics
                    </Link>
                    ·
                    <Link
                      to={clusterLink(cluster, 'analytics')}
                      className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
                    >
                      <ListChecksIcon className="size-3.5" aria-hidden="true" />
                      See what runs now
                    </Link>
                  </span>
                )}
              </Fact>
              <Fact label="Software">
                {cluster.senvAlias ? (
                  <code className="font-mono text-xs">{cluster.senvAlias.name}</code>
                ) : (
                  <span className="text-muted-foreground">Server's Python</span>
                )}
              </Fact>
              {hasEnded(cluster.currentState.state) ? (
                <Fact label="Idle timeout">{durationInWords(cluster.idleTimeout)}</Fact>
              ) : (
                <Fact label="Stops">
                  <StopTimers timers={cluster.stopTimers} />
                </Fact>
              )}
              <Fact label="Backend">
                <code className="font-mono text-xs">{cluster.backendType}</code>
              </Fact>
            </dl>
            {!dashboard ? (
              <p className="text-muted-foreground mt-3 text-xs">
                This scheduler serves no Dask dashboard: Dask needs a <code className="font-mono">bokeh</code>{' '}
                it supports where the scheduler runs. Clusters created without an environment run on the
                workspace's <code className="font-mono">cumulus-default</code> environment once it is built
                (see Software for its build, and why it failed if it did); or give the cluster an environment
                with that bokeh. Task progress is still visible from your Dask client.
              </p>
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Tags</CardTitle>
          </CardHeader>
          <CardContent>
            {tags.length === 0 ? (
              <EmptyState title="No tags" className="py-6" />
            ) : (
              <ul className="flex flex-wrap gap-2">
                {tags.map(([key, value]) => (
                  <li
                    key={key}
                    className="bg-muted max-w-full rounded-md border px-2 py-1 font-mono text-xs break-all"
                  >
                    {key}
                    <span className="text-muted-foreground">=</span>
                    {value}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
