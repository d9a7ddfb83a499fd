import type { UsageBucket, UsagePeriod, UsageReport } from '@/data/usage/usage-query';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The start of the period holding `time`, in UTC like the server's date_trunc (weeks start on Monday). */
function periodStart(time: number, period: UsagePeriod): number {
  const date = new Date(time);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (period === 'hour') return Math.floor(time / HOUR) * HOUR;
  if (period === 'day') return day;
  if (period === 'week') return day - ((date.getUTCDay() + 6) % 7) * DAY;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextStart(time: number, period: UsagePeriod): number {
  if (period === 'hour') return time + HOUR;
  if (period === 'day') return time + DAY;
  if (period === 'week') return time + 7 * DAY;
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/**
 * Every bucket of the range, the ones without usage as zeros (the server answers only buckets
 * with usage), so a chart's bars sit where their dates are. Buckets that fit no slot: as answered.
 */
export function everyBucket(
  report: Pick<UsageReport, 'start' | 'end' | 'period' | 'buckets'>,
): UsageBucket[] {
  const answered = new Map(report.buckets.map((bucket) => [Date.parse(bucket.start), bucket]));
  const end = Date.parse(`${report.end}T00:00:00Z`) + DAY;
  const slots: UsageBucket[] = [];
  for (
    let time = periodStart(Date.parse(`${report.start}T00:00:00Z`), report.period);
    time < end && slots.length < 1_000;
    time = nextStart(time, report.period)
  ) {
    slots.push(answered.get(time) ?? { start: new Date(time).toISOString(), total: 0, values: {} });
    answered.delete(time);
  }
  return answered.size > 0 || slots.length === 0 ? report.buckets : slots;
}
