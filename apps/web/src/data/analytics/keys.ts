import { type ClusterRef, clusterKeys } from '@/data/clusters/keys';

/** What a cluster's scheduler reported: under the cluster's key, so leaving its page drops them together. */
export const analyticsKeys = {
  all: (ref: ClusterRef) => [...clusterKeys.cluster(ref.id), 'analytics', ref.account] as const,
  computations: (ref: ClusterRef) => [...analyticsKeys.all(ref), 'computations'] as const,
  computation: (ref: ClusterRef, id: number) => [...analyticsKeys.computations(ref), id] as const,
  progress: (ref: ClusterRef) => [...analyticsKeys.all(ref), 'progress'] as const,
  spans: (ref: ClusterRef) => [...analyticsKeys.all(ref), 'spans'] as const,
};

/** The path parameters of the analytics calls about one cluster. */
export const analyticsPath = (ref: ClusterRef) => ({ account: ref.account, cluster: ref.id });
