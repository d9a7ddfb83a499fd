import { formatPercent } from '@/features/billing/format';
import { toneOf, USAGE_ALERT_LEVELS } from '@/features/billing/usage-alerts';
import { cn } from '@/lib/utils';

const BAR_TONES = { ok: 'bg-primary', warning: 'bg-warning', error: 'bg-destructive' } as const;

/**
 * How far a month's use is through a limit: label, "used of limit", the percentage with one
 * decimal and a bar coloured by the alert levels (warning from High, error at ReachedQuota).
 */
export function UsageMeter({
  label,
  used,
  limit,
  percent,
}: {
  label: string;
  /** "1,234.5 credits", "$12.00". */
  used: string;
  /** "10,000 included", or null: no limit. */
  limit: string | null;
  percent: number | null;
}) {
  const tone = percent === null || percent < USAGE_ALERT_LEVELS.High ? 'ok' : toneOf(percent);
  return (
    <div className="grid gap-1.5" data-slot="usage-meter">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-sm">
        <span className="text-muted-foreground">{label}</span>
        <span className="tabular-nums">
          <span className="font-medium">{used}</span>
          <span className="text-muted-foreground">{limit === null ? ' · no limit' : ` of ${limit}`}</span>
          {percent === null ? null : (
            <span
              className={cn(
                'ml-2 font-medium',
                tone === 'error' && 'text-destructive',
                tone === 'warning' && 'text-warning',
              )}
            >
              {formatPercent(percent)}
            </span>
          )}
        </span>
      </div>
      {percent === null ? null : (
        // biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot be styled alike in every browser; the role says the same.
        <div
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.min(100, percent)}
          aria-valuetext={formatPercent(percent)}
          className="bg-muted h-1.5 overflow-hidden rounded-full"
        >
          <div
            className={cn('h-full rounded-full', BAR_TONES[tone])}
            style={{ width: `${Math.min(100, percent)}%` }}
          />
        </div>
      )}
    </div>
  );
}
