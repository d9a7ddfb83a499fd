import { ActivityIcon } from 'lucide-react';
import type * as React from 'react';
import { useSearchParams } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import {
  type MetricName,
  type MetricScope,
  type MetricSeries,
  useClusterMetricQuery,
} from '@/data/clusters/cluster-metrics-query';
import { useClusterContext } from '@/features/clusters/cluster/cluster-context';
import { MetricChart, type MetricUnit } from '@/features/clusters/cluster/metrics-chart';
import { errorMessage } from '@/lib/api/errors';
import { clusterPollMs, hasEnded } from '@/lib/clusters/states';
import { cn } from '@/lib/utils';

/** The ranges offered (`?range=`), in seconds; `all` (the default) is the cluster's lifetime. */
const RANGES = [
  { id: '15m', label: '15 min', seconds: 900 },
  { id: '1h', label: '1 hour', seconds: 3600 },
  { id: '6h', label: '6 hours', seconds: 21_600 },
  { id: '24h', label: '24 hours', seconds: 86_400 },
  { id: 'all', label: 'Lifetime', seconds: null },
] as const;
type RangeId = (typeof RANGES)[number]['id'];

/** What each chart shows; host charts (`wide`: their cluster-wide title) follow the scope toggle. */
const CHARTS: Array<{
  metric: MetricName;
  title: string;
  wide?: string;
  unit: MetricUnit;
}> = [
  { metric: 'cpu', title: 'CPU per instance', wide: 'CPU, cluster-wide average', unit: 'percent' },
  { metric: 'memory', title: 'Memory per instance', wide: 'Memory, cluster-wide', unit: 'bytes' },
  { metric: 'network', title: 'Network per instance', wide: 'Network, cluster-wide', unit: 'rate' },
  { metric: 'disk', title: 'Disk per instance', wide: 'Disk, cluster-wide', unit: 'rate' },
  { metric: 'gpu', title: 'GPU per instance', wide: 'GPU, cluster-wide average', unit: 'percent' },
  {
    metric: 'gpu_memory',
    title: 'GPU memory per instance',
    wide: 'GPU memory, cluster-wide',
    unit: 'bytes',
  },
  { metric: 'tasks', title: 'Dask tasks', unit: 'count' },
  { metric: 'worker_memory', title: 'Dask workers’ memory', unit: 'bytes' },
  { metric: 'worker_cpu', title: 'Dask workers’ CPU', unit: 'percent' },
  { metric: 'transferred', title: 'Bytes moved between workers', unit: 'rate' },
  { metric: 'task_seconds', title: 'Compute seconds by task prefix', unit: 'seconds' },
];

/** `?by=`: one series per instance (the default) or the instances combined. */
const SCOPES: Array<{ id: MetricScope; label: string }> = [
  { id: 'instance', label: 'Per instance' },
  { id: 'cluster', label: 'Cluster-wide' },
];

/** What a host chart's figures are of (their `scope` label), said under its title. */
function scopeNote(data: MetricSeries | undefined): string | null {
  const scopes = new Set(data?.series.filter((s) => s.values.length > 0).map((s) => s.metric.scope));
  if (scopes.size === 0 || scopes.has(undefined)) return null;
  return scopes.has('host')
    ? 'Host-wide: the whole machine each instance runs on'
    : 'Each instance’s own processes';
}

function MetricCard({
  chart,
  start,
  by,
  poll,
}: {
  chart: (typeof CHARTS)[number];
  start: number | undefined;
  by: MetricScope;
  poll: number | false;
}) {
  const { clusterRef } = useClusterContext();
  const wide = by === 'cluster' && chart.wide !== undefined;
  const title = wide ? chart.wide! : chart.title;
  const query = useClusterMetricQuery(
    { ref: clusterRef, metric: chart.metric, start, by: wide ? 'cluster' : 'instance' },
    { refetchInterval: poll },
  );
  const empty = query.data?.series.every((s) => s.values.length === 0);
  const note = scopeNote(query.data);
  // No GPU: no GPU cards at all.
  if ((chart.metric === 'gpu' || chart.metric === 'gpu_memory') && (empty || query.isPending)) return null;
  return (
    <section aria-label={title} className="bg-card min-w-0 space-y-3 rounded-lg border p-4">
      <div>
        <h2 className="text-sm font-medium">{title}</h2>
        {note && <p className="text-muted-foreground text-xs">{note}</p>}
      </div>
      {query.isError ? (
        <p className="text-destructive text-sm">{errorMessage(query.error)}</p>
      ) : !query.data ? (
        <div className="bg-muted h-40 animate-pulse rounded" />
      ) : empty ? (
        <p className="text-muted-foreground flex h-40 items-center justify-center text-sm">
          No samples in this range
        </p>
      ) : (
        <MetricChart data={query.data} unit={chart.unit} title={title} />
      )}
    </section>
  );
}

function ToggleButton({
  pressed,
  onClick,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'focus-visible:ring-ring/50 rounded-md border px-3 py-1 text-sm outline-none focus-visible:ring-[3px]',
        pressed ? 'bg-primary text-primary-foreground border-primary' : 'hover:bg-muted',
      )}
    >
      {children}
    </button>
  );
}

/**
 * Metrics: what each instance's agent measures (CPU, memory and disk of its own processes where
 * instances share a machine; network and GPU of the machine, said to be host-wide) and what the
 * scheduler says of Dask, over a range kept in the address (`?range=`, by default the cluster's
 * lifetime), per instance or cluster-wide (`?by=`). Polled while the cluster runs; kept after it stops.
 */
export function ClusterMetricsTab() {
  const { cluster } = useClusterContext();
  const [params, setParams] = useSearchParams();
  const ended = hasEnded(cluster.currentState.state);
  const rangeId = (RANGES.find((r) => r.id === params.get('range'))?.id ?? 'all') as RangeId;
  const range = RANGES.find((r) => r.id === rangeId)!;
  const by = SCOPES.find((scope) => scope.id === params.get('by'))?.id ?? 'instance';
  const choose = (key: 'range' | 'by', value: string) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const poll = ended ? false : clusterPollMs(cluster.currentState.state) && 5_000;
  // Whole seconds, a minute at a time: the query key stays put between polls.
  const start =
    range.seconds === null ? undefined : Math.floor((Date.now() / 1000 - range.seconds) / 60) * 60;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <fieldset aria-label="Time range" className="flex flex-wrap gap-1">
          {RANGES.map((r) => (
            <ToggleButton key={r.id} pressed={r.id === rangeId} onClick={() => choose('range', r.id)}>
              {r.label}
            </ToggleButton>
          ))}
        </fieldset>
        <fieldset aria-label="Host metrics" className="flex flex-wrap gap-1">
          {SCOPES.map((scope) => (
            <ToggleButton key={scope.id} pressed={scope.id === by} onClick={() => choose('by', scope.id)}>
              {scope.label}
            </ToggleButton>
          ))}
        </fieldset>
        {!ended && (
          <span className="text-muted-foreground ml-auto inline-flex items-center gap-1.5 text-xs">
            <ActivityIcon className="size-3.5" aria-hidden="true" /> Live
          </span>
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {CHARTS.map((chart) => (
          <MetricCard key={chart.metric} chart={chart} start={start} by={by} poll={poll} />
        ))}
      </div>
      {cluster.currentState.state === 'pending' && (
        <EmptyState icon={ActivityIcon} title="Starting" description="Metrics arrive once instances run." />
      )}
    </div>
  );
}
