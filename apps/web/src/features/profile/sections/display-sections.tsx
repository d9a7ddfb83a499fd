import * as React from 'react';

import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { SectionCard } from '@/features/profile/sections/section-card';
import { CHART_PALETTES } from '@/lib/chart-colors';
import {
  browserTimeZone,
  type ChartColorScheme,
  formatDateTime,
  setChartColorScheme,
  setTimeZone,
  type TimeZoneChoice,
  useChartColorScheme,
  useTimeZone,
} from '@/lib/preferences';

function Choice({ id, value, label, hint }: { id: string; value: string; label: string; hint?: string }) {
  return (
    <div className="flex items-center gap-2">
      <RadioGroupItem id={id} value={value} />
      <Label htmlFor={id} className="font-normal">
        {label}
        {hint ? <span className="text-muted-foreground">{hint}</span> : null}
      </Label>
    </div>
  );
}

/** Display Time Zone: the browser's zone or UTC, with the current time in the chosen one. */
export function TimeZoneSection() {
  const choice = useTimeZone();
  const [now, setNow] = React.useState(() => new Date());
  React.useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 1_000);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <SectionCard
      id="time-zone"
      title="Display Time Zone"
      description="How times are shown across the console."
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <RadioGroup
          value={choice}
          onValueChange={(value) => setTimeZone(value as TimeZoneChoice)}
          aria-label="Display time zone"
          className="gap-3"
        >
          <Choice id="tz-browser" value="browser" label="Browser" hint={` (${browserTimeZone()})`} />
          <Choice id="tz-utc" value="UTC" label="UTC" />
        </RadioGroup>
        <p className="text-muted-foreground text-sm">
          Current time:{' '}
          <span className="text-foreground font-mono tabular-nums">{formatDateTime(now, choice)}</span>
        </p>
      </div>
    </SectionCard>
  );
}

/** Chart Color Scheme: Pretty or High Contrast (kept in a strict same-site cookie). */
export function ChartColorSection() {
  const scheme = useChartColorScheme();
  return (
    <SectionCard
      id="chart-colors"
      title="Chart Color Scheme"
      description="Colors used by usage and cluster charts."
    >
      <RadioGroup
        value={scheme}
        onValueChange={(value) => setChartColorScheme(value as ChartColorScheme)}
        aria-label="Chart color scheme"
        className="gap-3"
      >
        {(['pretty', 'high-contrast'] as const).map((value) => (
          <div key={value} className="flex items-center gap-3">
            <Choice
              id={`chart-${value}`}
              value={value}
              label={value === 'pretty' ? 'Pretty' : 'High Contrast'}
            />
            <span aria-hidden="true" className="flex gap-1">
              {CHART_PALETTES[value].slice(0, 5).map((color) => (
                <span key={color} className="size-3 rounded-sm" style={{ backgroundColor: color }} />
              ))}
            </span>
          </div>
        ))}
      </RadioGroup>
    </SectionCard>
  );
}
