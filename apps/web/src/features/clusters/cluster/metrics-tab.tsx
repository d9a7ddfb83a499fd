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
  unit: 'percent' | 'bytes' | 'rate' | 'count' | 'seconds';
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

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];

function formatValue(value: number, unit: (typeof CHARTS)[number]['unit']): string {
  if (unit === 'percent') return `${value.toFixed(0)}%`;
  if (unit === 'seconds') return `${value.toFixed(1)} s`;
  if (unit === 'count') return value.toFixed(0);
  const suffix = unit === 'rate' ? '/s' : '';
  const steps = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = value;
  let k = 0;
  while (Math.abs(v) >= 1000 && k < steps.length - 1) {
    v /= 1000;
    k++;
  }
  return `${v.toFixed(v < 10 && k > 0 ? 1 : 0)} ${steps[k]}${suffix}`;
}

/** What a series is, for its legend: instance (and direction), task state or prefix. */
function label(metric: Record<string, string>): string {
  // Cluster-wide series say how many instances they combine.
  const wide = metric.instance === 'cluster' && metric.instances;
  const who = wide
    ? `${metric.instances} instance${metric.instances === '1' ? '' : 's'}`
    : (metric.instance ?? metric.state ?? metric.prefix ?? metric.name ?? '');
  return metric.direction ? `${who} ${metric.direction}` : who;
}

const W = 600;
const H = 160;

/** A line chart of the series (hand-drawn SVG: small, and nothing to load). */
function Chart({ data, unit }: { data: MetricSeries; unit: (typeof CHARTS)[number]['unit'] }) {
  const series = data.series
    .filter((s) => s.values.length > 0)
    .map((s) => ({ metric: s.metric, values: s.values as Array<[number, number]> }));
  const all = series.flatMap((s) => s.values);
  const t0 = data.start;
  const t1 = Math.max(data.end, t0 + 1);
  const max = Math.max(unit === 'percent' ? 100 : 0, ...all.map(([, v]) => v)) || 1;
  const x = (t: number) => ((t - t0) / (t1 - t0)) * W;
  const y = (v: number) => H - (v / max) * (H - 8);
  return (
    <div className="space-y-2">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-40 w-full" preserveAspectRatio="none" aria-hidden="true">
        <line x1={0} x2={W} y1={H - 0.5} y2={H - 0.5} className="stroke-border" />
        <line
          x1={0}
          x2={W}
          y1={y(max) + 0.5}
          y2={y(max) + 0.5}
          className="stroke-border"
          strokeDasharray="4 4"
        />
        {series.map((s, k) => (
          <polyline
            key={label(s.metric)}
            fill="none"
            stroke={COLORS[k % COLORS.length]}
            strokeWidth={1.5}
            vectorEffect="non-scaling-stroke"
            points={s.values.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}
          />
        ))}
        {/* The newest point of each series as a dot: a series of one point still shows. */}
        {series.map((s, k) => {
          const [t, v] = s.values.at(-1)!;
          return (
            <line
              key={`${label(s.metric)}-now`}
              x1={x(t)}
              x2={x(t)}
              y1={y(v)}
              y2={y(v)}
              stroke={COLORS[k % COLORS.length]}
              strokeWidth={6}
              strokeLinecap="round"
              vectorEffect="non-scaling-stroke"
            />
          );
        })}
      </svg>
      <p className="text-muted-foreground text-xs">Top of chart: {formatValue(max, unit)}</p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {series.map((s, k) => (
          <li key={label(s.metric)} className="inline-flex items-center gap-1.5">
            <span
              className="inline-block size-2.5 rounded-full"
              style={{ background: COLORS[k % COLORS.length] }}
              aria-hidden="true"
            />
            <span className="font-mono">{label(s.metric)}</span>
            <span className="text-muted-foreground tabular-nums">
              now {formatValue(s.values.at(-1)?.[1] ?? 0, unit)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

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
    <section aria-label={title} className="bg-card space-y-3 rounded-lg border p-4">
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
        <Chart data={query.data} unit={chart.unit} />
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
