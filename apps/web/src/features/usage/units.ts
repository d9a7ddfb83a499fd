import type { UsageGroupBy, UsagePeriod, UsageUnit } from '@/data/usage/usage-query';

// The vocabulary of the Usage page: units, periods and group-bys with their labels, and how each
// unit's numbers read.

export const UNIT_LABELS: Record<UsageUnit, string> = {
  credits: 'Credits',
  'cumulus-cost': 'Cumulus cost ($)',
  'instance-minutes': 'Instance minutes',
  'approx-cloud-cost': 'Approx. cloud cost ($)',
};

export const PERIOD_LABELS: Record<UsagePeriod, string> = {
  hour: 'Hour',
  day: 'Day',
  week: 'Week',
  month: 'Month',
};

export const GROUP_BY_LABELS: Record<UsageGroupBy, string> = {
  account: 'Workspace',
  billing_method: 'Billing method',
  cloud_provider: 'Cloud provider',
  cluster_type: 'Cluster type',
  cluster: 'Cluster',
  gpu_type: 'GPU type',
  instance_type: 'Instance type',
  organization: 'Organization',
  tag: 'Tag',
  user: 'User',
  zone: 'Zone',
};

const isIn = <T extends string>(labels: Record<T, string>, value: string | null): value is T =>
  value !== null && Object.hasOwn(labels, value);
export const isUnit = (value: string | null): value is UsageUnit => isIn(UNIT_LABELS, value);
export const isPeriod = (value: string | null): value is UsagePeriod => isIn(PERIOD_LABELS, value);
export const isGroupBy = (value: string | null): value is UsageGroupBy => isIn(GROUP_BY_LABELS, value);

const decimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "1,234.50" credits, "$1,234.50", "1,235" minutes. */
export function formatUsage(value: number, unit: UsageUnit): string {
  if (unit === 'instance-minutes') return integers.format(Math.round(value));
  const text = decimals.format(value);
  return unit === 'credits' ? text : `$${text}`;
}

/** A bucket's start as its period reads it, in UTC like the server's buckets. */
export function bucketLabel(start: string, period: UsagePeriod): string {
  const iso = new Date(start).toISOString();
  if (period === 'hour') return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  if (period === 'week') return `Week of ${iso.slice(0, 10)}`;
  if (period === 'month') return iso.slice(0, 7);
  return iso.slice(0, 10);
}
