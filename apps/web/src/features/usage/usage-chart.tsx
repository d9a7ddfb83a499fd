import * as React from 'react';

import type { UsageBucket, UsagePeriod, UsageReport, UsageUnit } from '@/data/usage/usage-query';
import { everyBucket } from '@/features/usage/buckets';
import { bucketLabel, formatUsage, UNIT_LABELS } from '@/features/usage/units';
import { cn } from '@/lib/utils';

const TICKS = 4;
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** The smallest round number (1, 2, 2.5 or 5 times a power of ten, times TICKS) at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const step = max / TICKS;
  const magnitude = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= step) ?? 10;
  return nice * magnitude * TICKS;
}

const axisLabel = (value: number, unit: UsageUnit) =>
  `${unit === 'cumulus-cost' || unit === 'approx-cloud-cost' ? '$' : ''}${compact.format(value)}`;

type UsageChartProps = {
  report: UsageReport;
  /** The color of each group, by its key. */
  colorOf: (key: string) => string;
};

/**
 * A stacked bar per bucket, one color per group, with a legend. Hovering a bar, or focusing the
 * chart and moving with the arrow keys, shows that bucket's date and per-group values.
 */
export function UsageChart({ report, colorOf }: UsageChartProps) {
  const [active, setActive] = React.useState<number | null>(null);
  const { groups, unit, period } = report;
  const buckets = React.useMemo(() => everyBucket(report), [report]);
  const count = Math.max(buckets.length, 1);
  const top = niceMax(Math.max(0, ...buckets.map((bucket) => bucket.total)));
  const ticks = Array.from({ length: TICKS + 1 }, (_, index) => (top / TICKS) * index);
  const summary = `${UNIT_LABELS[unit]} by ${period} from ${report.start} to ${report.end}: ${formatUsage(report.total, unit)} in total${groups.length > 1 ? ` across ${groups.length} groups` : ''}.`;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const step = event.key === 'ArrowLeft' ? -1 : 1;
    setActive((current) => Math.min(buckets.length - 1, Math.max(0, (current ?? 0) + step)));
  };

  // The bucket under the pointer, from where it is across the plot.
  const onMouseMove = (event: React.MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || buckets.length === 0) return;
    const index = Math.floor(((event.clientX - box.left) / box.width) * buckets.length);
    setActive(Math.min(buckets.length - 1, Math.max(0, index)));
  };

  return (
    <figure className="flex min-w-0 flex-col gap-3">
      <div className="flex gap-2">
        <div
          aria-hidden="true"
          className="text-muted-foreground relative h-56 w-12 shrink-0 text-xs tabular-nums"
        >
          {ticks.map((tick) => (
            <span
              key={tick}
              className="absolute right-0 translate-y-1/2 leading-none"
              style={{ bottom: `${(tick / top) * 100}%` }}
            >
              {axisLabel(tick, unit)}
            </span>
          ))}
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a focusable chart, not a set of form fields. */}
        <div
          role="group"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is focusable so keyboards can read each bucket.
          tabIndex={0}
          aria-label="Usage chart: use the left and right arrow keys to read each bucket"
          className="focus-visible:ring-ring/50 relative h-56 min-w-0 flex-1 rounded-sm outline-none focus-visible:ring-[3px]"
          onKeyDown={onKeyDown}
          onFocus={() => setActive((current) => current ?? buckets.length - 1)}
          onBlur={() => setActive(null)}
          onMouseMove={onMouseMove}
          onMouseLeave={() => setActive(null)}
        >
          <svg
            role="img"
            aria-label={summary}
            viewBox={`0 0 ${count} 100`}
            preserveAspectRatio="none"
            className="size-full overflow-visible"
          >
            {ticks.map((tick) => (
              <line
                key={tick}
                x1={0}
                x2={count}
                y1={100 - (tick / top) * 100}
                y2={100 - (tick / top) * 100}
                stroke="var(--border)"
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {buckets.map((bucket, index) => {
              let base = 100;
              return (
                <g key={bucket.start} data-bucket={bucket.start}>
                  {index === active ? (
                    <rect x={index} y={0} width={1} height={100} fill="var(--muted)" opacity={0.5} />
                  ) : null}
                  {groups.map((group) => {
                    const value = bucket.values[group.key] ?? 0;
                    if (value <= 0) return null;
                    const height = (value / top) * 100;
                    base -= height;
                    return (
                      <rect
                        key={group.key}
                        x={index + 0.15}
                        width={0.7}
                        y={base}
                        height={height}
                        fill={colorOf(group.key)}
                      />
                    );
                  })}
                </g>
              );
            })}
          </svg>
          <BucketTooltip report={report} buckets={buckets} index={active} colorOf={colorOf} />
        </div>
      </div>
      <div aria-hidden="true" className="text-muted-foreground ml-14 flex justify-between gap-2 text-xs">
        <span>{buckets[0] ? bucketLabel(buckets[0].start, period) : report.start}</span>
        {buckets.length > 1 ? <span>{bucketLabel(buckets.at(-1)!.start, period)}</span> : null}
      </div>
      {groups.length > 1 ? (
        <figcaption>
          <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
            {groups.map((group) => (
              <li key={group.key} className="flex min-w-0 items-center gap-1.5">
                <Swatch color={colorOf(group.key)} />
                <span className="max-w-48 truncate" title={group.label}>
                  {group.label}
                </span>
              </li>
            ))}
          </ul>
        </figcaption>
      ) : null}
    </figure>
  );
}

export function Swatch({ color, className }: { color: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block size-2.5 shrink-0 rounded-sm', className)}
      style={{ backgroundColor: color }}
    />
  );
}

type BucketTooltipProps = {
  report: UsageReport;
  buckets: UsageBucket[];
  index: number | null;
  colorOf: (key: string) => string;
};

/** One bucket's date, its groups' values and its total, beside its bar. */
function BucketTooltip({ report, buckets, index, colorOf }: BucketTooltipProps) {
  const bucket = index === null ? undefined : buckets[index];
  const center = index === null ? 0 : ((index + 0.5) / buckets.length) * 100;
  return (
    <div aria-live="polite" className="pointer-events-none">
      {bucket && index !== null ? (
        <div
          role="tooltip"
          className="bg-popover text-popover-foreground absolute top-2 z-10 w-56 max-w-full rounded-md border px-3 py-2 text-xs shadow-md"
          // Beside its bar, and never past either edge of the plot.
          style={{ left: `clamp(0px, calc(${center}% - 7rem), max(0px, calc(100% - 14rem)))` }}
        >
          <p className="mb-1 font-medium">{bucketLabel(bucket.start, report.period as UsagePeriod)}</p>
          <ul className="flex flex-col gap-0.5">
            {report.groups
              .filter((group) => (bucket.values[group.key] ?? 0) > 0)
              .map((group) => (
                <li key={group.key} className="flex items-center gap-1.5">
                  <Swatch color={colorOf(group.key)} />
                  <span className="min-w-0 flex-1 truncate">{group.label}</span>
                  <span className="tabular-nums">
                    {formatUsage(bucket.values[group.key] ?? 0, report.unit)}
                  </span>
                </li>
              ))}
          </ul>
          <p className="mt-1 flex justify-between gap-3 border-t pt-1 font-medium">
            <span>Total</span>
            <span className="tabular-nums">{formatUsage(bucket.total, report.unit)}</span>
          </p>
        </div>
      ) : null}
    </div>
  );
}
