const UNITS: Record<string, number> = {
  ms: 0.001,
  millisecond: 0.001,
  milliseconds: 0.001,
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
  w: 604_800,
  week: 604_800,
  weeks: 604_800,
};

/**
 * Seconds from a duration as Dask writes them ("20 minutes", "1h", "90s", 300); null when the
 * value is not a duration. Mirrors dask.utils.parse_timedelta for the forms clients send.
 */
export function parseDurationSeconds(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+(?:\.\d+)?)?\s*([a-zA-Z]*)\s*$/.exec(value);
  if (!match || (!match[1] && !match[2])) return null;
  const unit = UNITS[(match[2] || 's').toLowerCase()];
  if (unit === undefined) return null;
  return Number(match[1] ?? 1) * unit;
}
