import type { paths } from '@cumulus/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { clusterPollMs, dashboardPollMs } from '@/features/clusters/states';
import { type ApiBody, type ApiData, api, call } from '@/lib/api/client';

export type ClusterSummary = ApiData<'/api/v2/clusters/paginate', 'get'>['items'][number];
export type ClusterDetails = ApiData<'/api/v2/clusters/account/{account}/id/{pk}', 'get'>;
export type ClusterProcess = ClusterDetails['workers'][number];
export type ClusterInstance = NonNullable<ClusterProcess['instance']>;
export type ClusterStates = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/states', 'get'>;
export type StateRecord = ClusterStates[string][number];
export type LogLine = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/better-logs', 'get'>[number];
export type ClusterAlert = ApiData<'/api/v2/clusters/account/{account}/id/{pk}/alerts', 'get'>[number];
export type PaginateQuery = NonNullable<paths['/api/v2/clusters/paginate']['get']['parameters']['query']>;
export type BetterLogsQuery = NonNullable<
  paths['/api/v2/clusters/account/{account}/id/{pk}/better-logs']['get']['parameters']['query']
>;
export type CreateClusterBody = ApiBody<'/api/v2/clusters/account/{account}/', 'post'>;

/** A cluster as its pages address it: its workspace's slug and its id. */
export type ClusterRef = { account: string; id: number };

export const clusterKeys = {
  all: ['clusters'] as const,
  lists: () => [...clusterKeys.all, 'paginate'] as const,
  list: (query: PaginateQuery) => [...clusterKeys.lists(), query] as const,
  frontend: (id: number) => [...clusterKeys.all, 'frontend', id] as const,
  cluster: (id: number) => [...clusterKeys.all, 'cluster', id] as const,
  details: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'details', ref.account] as const,
  states: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'states', ref.account] as const,
  alerts: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'alerts', ref.account] as const,
  logs: (ref: ClusterRef, query: BetterLogsQuery) =>
    [...clusterKeys.cluster(ref.id), 'logs', ref.account, query] as const,
};

const clusterPath = (ref: ClusterRef) => ({ path: { account: ref.account, pk: ref.id } });

/**
 * One page of the Dashboard, refreshed every few seconds while a cluster on it is changing.
 * `query` null: the scope is not known yet.
 */
export function useClustersPage(query: PaginateQuery | null) {
  return useQuery({
    queryKey: clusterKeys.list(query ?? {}),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/clusters/paginate', { params: { query: query ?? {} }, signal })),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (current) => dashboardPollMs(current.state.data?.items ?? []),
  });
}

/** A cluster by id alone: its summary says which workspace it belongs to. */
export function useClusterFrontend(id: number) {
  return useQuery({
    queryKey: clusterKeys.frontend(id),
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/clusters/id/{pk}/frontend', { params: { path: { pk: id } }, signal })),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

/** The details shape of client-contract.md 2.3, polled while the cluster is alive. */
export function useClusterDetails(ref: ClusterRef | null) {
  return useQuery({
    queryKey: ref ? clusterKeys.details(ref) : [...clusterKeys.all, 'details', 'unknown'],
    queryFn: ({ signal }) =>
      call(api.GET('/api/v2/clusters/account/{account}/id/{pk}', { params: clusterPath(ref!), signal })),
    enabled: ref !== null,
    refetchInterval: (current) => clusterPollMs(current.state.data?.currentState.state),
  });
}

/** Every state record of the cluster and its parts, by object type. */
export function useClusterStates(ref: ClusterRef, state: string | undefined) {
  return useQuery({
    queryKey: clusterKeys.states(ref),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/clusters/account/{account}/id/{pk}/states', { params: clusterPath(ref), signal }),
      ),
    refetchInterval: clusterPollMs(state),
  });
}

/** What went wrong: failed processes, a failed cluster (level 40 is an error). */
export function useClusterAlerts(ref: ClusterRef, state: string | undefined) {
  return useQuery({
    queryKey: clusterKeys.alerts(ref),
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/v2/clusters/account/{account}/id/{pk}/alerts', { params: clusterPath(ref), signal }),
      ),
    refetchInterval: clusterPollMs(state),
  });
}

/** One better-logs call (client-contract.md 2.7): lines oldest first, `since_ms` inclusive. */
export function fetchLogs(ref: ClusterRef, query: BetterLogsQuery, signal?: AbortSignal) {
  return call(
    api.GET('/api/v2/clusters/account/{account}/id/{pk}/better-logs', {
      params: { ...clusterPath(ref), query },
      signal,
    }),
  );
}

/** The reason recorded with a stop from the console. */
export const stopReason = (username: string) => `Stopped by ${username} from the console`;

export function useStopCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, reason }: { ref: ClusterRef; reason: string }) =>
      call(
        api.DELETE('/api/v2/clusters/account/{account}/id/{pk}', {
          params: { ...clusterPath(ref), query: { reason } },
        }),
      ),
    onSuccess: (_, { ref }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clusterKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(ref.id) }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.frontend(ref.id) }),
      ]),
  });
}

export function useCreateCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ account, body }: { account: string; body: CreateClusterBody }) =>
      call(api.POST('/api/v2/clusters/account/{account}/', { params: { path: { account } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clusterKeys.lists() }),
  });
}
