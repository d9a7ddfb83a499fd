import type { paths } from '@cumulus/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { usageKeys } from '@/data/usage/keys';
import { type ApiData, api, call } from '@/lib/api/client';
import type { QueryOptions } from '@/lib/api/hooks';

export type UsageQuery = paths['/api/v2/usage/']['get']['parameters']['query'];
export type UsageReport = ApiData<'/api/v2/usage/', 'get'>;
export type UsageUnit = UsageQuery['unit'];
export type UsagePeriod = NonNullable<UsageQuery['period']>;
export type UsageGroupBy = NonNullable<UsageQuery['groupby']>;
export type UsageGroup = UsageReport['groups'][number];
export type UsageBucket = UsageReport['buckets'][number];

/** Usage in a unit per period (and group) over a date range, within what the caller may see. */
export const getUsage = (query: UsageQuery, signal?: AbortSignal) =>
  call(api.GET('/api/v2/usage/', { params: { query }, signal }));

/** `query` null: the scope is not known yet. The last answer stays shown while the next loads. */
export function useUsageQuery<TData = UsageReport>(
  { query }: { query: UsageQuery | null },
  { enabled = true, ...options }: QueryOptions<UsageReport, TData> = {},
) {
  return useQuery({
    queryKey: usageKeys.report(query ?? ({} as UsageQuery)),
    queryFn: ({ signal }) => getUsage(query as UsageQuery, signal),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    ...options,
  });
}
