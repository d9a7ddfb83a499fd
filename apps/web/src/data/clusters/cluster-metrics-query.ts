import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { type ClusterRef, clusterKeys } from '@/data/clusters/keys';
import { type ApiData, api, call } from '@/lib/api/client';

export type MetricName =
  | 'cpu'
  | 'memory'
  | 'network'
  | 'disk'
  | 'gpu'
  | 'gpu_memory'
  | 'tasks'
  | 'worker_memory'
  | 'worker_cpu'
  | 'transferred'
  | 'task_seconds';
export type MetricSeries = ApiData<'/api/v2/metrics/account/{account}/cluster/{pk}', 'get'>;
/** One series per instance, or the instances combined (summed, or averaged for CPU and GPU). */
export type MetricScope = 'instance' | 'cluster';

/** One metric's series over the window (`start`, `end`: epoch seconds; none: the cluster's life). */
export function useClusterMetricQuery(
  {
    ref,
    metric,
    start,
    by = 'instance',
  }: { ref: ClusterRef; metric: MetricName; start?: number; by?: MetricScope },
  options: { refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: [...clusterKeys.cluster(ref.id), 'metrics', ref.account, metric, by, start ?? null],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/metrics/account/{account}/cluster/{pk}', {
          params: {
            path: { account: ref.account, pk: ref.id },
            query: { query: metric, by, ...(start === undefined ? {} : { start: String(start) }) },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    ...options,
  });
}
