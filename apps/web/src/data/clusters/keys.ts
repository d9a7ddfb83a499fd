import type { BetterLogsQuery } from '@/data/clusters/cluster-logs-query';
import type { PaginateQuery } from '@/data/clusters/clusters-paginate-query';

/** A cluster as its pages address it: its workspace's slug and its id. */
export type ClusterRef = { account: string; id: number };

export const clusterKeys = {
  all: ['clusters'] as const,
  lists: () => [...clusterKeys.all, 'paginate'] as const,
  list: (query: PaginateQuery) => [...clusterKeys.lists(), query] as const,
  /** Under lists(): a stop refreshes the notebook list too. */
  notebooks: (query: PaginateQuery) => [...clusterKeys.lists(), 'notebooks', query] as const,
  /** What a workspace's clusters can be (its backend's capabilities) and the caller's limits there. */
  accountOptions: (account: string) => [...clusterKeys.all, 'account-options', account] as const,
  frontend: (id: number) => [...clusterKeys.all, 'frontend', id] as const,
  cluster: (id: number) => [...clusterKeys.all, 'cluster', id] as const,
  details: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'details', ref.account] as const,
  /** Details asked for before the cluster's workspace is known: never fetched. */
  unknownDetails: () => [...clusterKeys.all, 'details', 'unknown'] as const,
  states: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'states', ref.account] as const,
  alerts: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'alerts', ref.account] as const,
  logs: (ref: ClusterRef, query: BetterLogsQuery) =>
    [...clusterKeys.cluster(ref.id), 'logs', ref.account, query] as const,
};

/** The path parameters of every call about one cluster. */
export const clusterPath = (ref: ClusterRef) => ({ path: { account: ref.account, pk: ref.id } });
