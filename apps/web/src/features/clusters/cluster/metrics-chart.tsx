import 'uplot/dist/uPlot.min.css';

import { format } from 'date-fns';
import * as React from 'react';
import uPlot from 'uplot';

import type { MetricSeries } from '@/data/clusters/cluster-metrics-query';
import { formatBytes } from '@/lib/format';

export type MetricUnit = 'percent' | 'bytes' | 'rate' | 'count' | 'seconds';

/** "42%", "1.5 GiB", "12.0 MiB/s", "3.2 s", "17". */
export function formatMetric(value: number, unit: MetricUnit): string {
  if (unit === 'percent') return `${value.toFixed(0)}%`;
  if (unit === 'seconds') return `${value.toFixed(1)} s`;
  if (unit === 'count') return value.toFixed(0);
  return formatBytes(value, { perSecond: unit === 'rate', empty: unit === 'rate' ? '0 B/s' : '0 B' });
}

/** An axis tick: as `formatMetric`, without a trailing ".0" ("512 MiB", "1 GiB"). */
const tickText = (value: number, unit: MetricUnit) => formatMetric(value, unit).replace(/\.0(?= )/, '');

/** What a series is, for its legend: instance (and direction), task state or prefix. */
export function seriesLabel(metric: Record<string, string>): string {
  // Cluster-wide series say how many instances they combine.
  const wide = metric.instance === 'cluster' && metric.instances;
  const who = wide
    ? `${metric.instances} instance${metric.instances === '1' ? '' : 's'}`
    : (metric.instance ?? metric.state ?? metric.prefix ?? metric.name ?? '');
  return metric.direction ? `${who} ${metric.direction}` : who;
}

/** The series on one time axis (uPlot's aligned data): every time any series has, `null` where one has none. */
export interface Aligned {
  times: number[];
  series: Array<{ label: string; values: Array<number | null>; latest: number }>;
}

export function align(data: MetricSeries): Aligned {
  const present = data.series.filter((s) => s.values.length > 0);
  const times = [...new Set(present.flatMap((s) => s.values.map(([t]) => t!)))].sort((a, b) => a - b);
  return {
    times,
    series: present.map((s) => {
      const at = new Map(s.values.map(([t, v]) => [t!, v!]));
      return {
        label: seriesLabel(s.metric),
        values: times.map((t) => at.get(t) ?? null),
        latest: s.values.at(-1)![1]!,
      };
    }),
  };
}

/**
 * The series' colours: the dark theme's chart tokens (index.css `--chart-N`), each at least 3:1
 * against the card (WCAG 1.4.11) and 4.5:1 as text.
 */
const PALETTE = Array.from({ length: 8 }, (_, k) => `--chart-${k + 1}`);
const colourVar = (k: number) => `var(${PALETTE[k % PALETTE.length]})`;
/** The canvas needs the colours themselves, not `var()`: read from the page once a chart draws. */
function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Binary steps for byte axes (512 MiB, 1 GiB, 2 GiB), as formatBytes counts. */
const BYTE_INCREMENTS = [0, 1, 2, 3, 4, 5].flatMap((power) =>
  [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((m) => m * 1024 ** power),
);

const HEIGHT = 176;

/** Where the cursor is: the time's index, and each series' nearest sample's (uPlot's `idxs`, 0 the time). */
type Cursor = { idx: number; idxs: Array<number | null | undefined> };

function chartOptions(
  width: number,
  labels: string[],
  unit: MetricUnit,
  window: () => [number, number],
  onCursor: (at: Cursor | null) => void,
): uPlot.Options {
  const text = themeColour('--muted-foreground', '#9a9ca5');
  const grid = themeColour('--border', 'rgba(255,255,255,0.09)');
  const font = '11px ui-sans-serif, system-ui, sans-serif';
  const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    padding: [8, 8, 0, 0],
    // A series without a sample at the cursor's time shows its nearest one.
    cursor: { y: false, points: { size: 7 }, hover: { skip: [null, undefined] } },
    scales: {
      x: { time: true, range: () => window() },
      y: {
        range: (_u, _min, max) => [0, Math.max(unit === 'percent' ? 100 : 0, max * 1.05) || 1],
      },
    },
    axes: [
      { ...axis, space: 70 },
      {
        ...axis,
        space: 32,
        ...(unit === 'bytes' || unit === 'rate' ? { incrs: BYTE_INCREMENTS } : {}),
        values: (_u, ticks) => ticks.map((v) => tickText(v, unit)),
        // Wide enough for the longest tick ("100%", "512 MiB/s") after the tick mark, no wider.
        size: (_u, values) => 22 + 7 * Math.max(3, ...(values ?? []).map((v) => v.length)),
      },
    ],
    series: [
      {},
      ...labels.map((label, k) => ({
        label,
        stroke: themeColour(PALETTE[k % PALETTE.length]!, '#60a5fa'),
        width: 1.5,
        spanGaps: true,
      })),
    ],
    hooks: {
      setCursor: [
        (u) =>
          onCursor(u.cursor.idx == null ? null : { idx: u.cursor.idx, idxs: [...(u.cursor.idxs ?? [])] }),
      ],
    },
  };
}

const when = (seconds: number) => format(seconds * 1000, 'MMM d, HH:mm:ss');

/**
 * One metric's series as a uPlot line chart (time and value axes; the legend under it gives each
 * series' value at the cursor, else its newest), or as a table of the same numbers
 * ("Show as table"), for screen readers and for reading exact figures.
 */
export function MetricChart({ data, unit, title }: { data: MetricSeries; unit: MetricUnit; title: string }) {
  const aligned = React.useMemo(() => align(data), [data]);
  const [asTable, setAsTable] = React.useState(false);
  const [cursor, setCursor] = React.useState<Cursor | null>(null);
  const box = React.useRef<HTMLDivElement>(null);
  const plot = React.useRef<uPlot | null>(null);
  // The chart is made again only when its series change (an instance joins); a poll sets its data.
  const latest = React.useRef({ aligned, data });
  latest.current = { aligned, data };
  const labelKey = aligned.series.map((s) => s.label).join('\n');
  const labels = React.useMemo(() => labelKey.split('\n'), [labelKey]);

  React.useEffect(() => {
    const element = box.current;
    if (asTable || !element) return;
    const window = (): [number, number] => {
      const { data } = latest.current;
      return [data.start, Math.max(data.end, data.start + 1)];
    };
    const toData = ({ times, series }: Aligned): uPlot.AlignedData => [times, ...series.map((s) => s.values)];
    const chart = new uPlot(
      chartOptions(element.clientWidth || 300, labels, unit, window, setCursor),
      toData(latest.current.aligned),
      element,
    );
    plot.current = chart;
    const resize = new ResizeObserver(() => {
      if (element.clientWidth > 0) chart.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
      setCursor(null);
    };
  }, [asTable, labels, unit]);

  React.useEffect(() => {
    plot.current?.setData([aligned.times, ...aligned.series.map((s) => s.values)]);
  }, [aligned]);

  const hovered = cursor === null ? undefined : aligned.times[cursor.idx];
  return (
    <div className="space-y-2">
      {asTable ? (
        // biome-ignore lint/a11y/useSemanticElements: a scrolling table, not a set of form fields.
        <div
          role="group"
          aria-label={`${title}, values`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls, so keyboards can scroll it.
          tabIndex={0}
          className="focus-visible:ring-ring/50 max-h-64 overflow-auto rounded border outline-none focus-visible:ring-[3px]"
        >
          <table className="w-full text-xs tabular-nums">
            <caption className="sr-only">{title}</caption>
            <thead className="bg-card sticky top-0">
              <tr>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Time
                </th>
                {aligned.series.map((s) => (
                  <th key={s.label} scope="col" className="px-2 py-1 text-right font-mono font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {aligned.times.map((t, i) => (
                <tr key={t} className="border-t">
                  <th
                    scope="row"
                    className="text-muted-foreground px-2 py-1 text-left font-normal whitespace-nowrap"
                  >
                    {when(t)}
                  </th>
                  {aligned.series.map((s) => (
                    <td key={s.label} className="px-2 py-1 text-right whitespace-nowrap">
                      {s.values[i] === null ? '–' : formatMetric(s.values[i]!, unit)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        // The same numbers are in the legend and the table: the picture itself is hidden from screen readers.
        <div ref={box} aria-hidden="true" className="h-44 w-full min-w-0 overflow-hidden" />
      )}
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="text-xs">
          {/* Where the cursor is, else the newest values. */}
          {hovered !== undefined && <p className="text-muted-foreground tabular-nums">At {when(hovered)}</p>}
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {aligned.series.map((s, k) => {
              const at = cursor?.idxs[k + 1];
              const value = hovered === undefined ? s.latest : at == null ? null : s.values[at];
              return (
                <li key={s.label} className="inline-flex items-center gap-1.5">
                  <span
                    className="inline-block size-2.5 rounded-full"
                    style={{ background: colourVar(k) }}
                    aria-hidden="true"
                  />
                  <span className="font-mono">{s.label}</span>
                  <span className="text-muted-foreground whitespace-nowrap tabular-nums">
                    {hovered === undefined ? 'now ' : ''}
                    {value === null || value === undefined ? '–' : formatMetric(value, unit)}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
        <button
          type="button"
          onClick={() => setAsTable((shown) => !shown)}
          className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 rounded text-xs underline-offset-2 outline-none hover:underline focus-visible:ring-[3px]"
        >
          {asTable ? 'Show as chart' : 'Show as table'}
        </button>
      </div>
    </div>
  );
}
