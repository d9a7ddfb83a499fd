import type { Cluster } from '../../../db/schema/index.js';

/**
 * `cluster_timeout_seconds` (the client's `cluster_timeout`): how long a cluster may run at all,
 * counted from its creation, whatever it does meanwhile.
 */
export function clusterTimeoutAt(cluster: Pick<Cluster, 'created' | 'options'>): Date | null {
  const seconds = Number((cluster.options as { cluster_timeout_seconds?: unknown }).cluster_timeout_seconds);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(cluster.created.getTime() + seconds * 1000);
}

/** Why the cluster must stop now, when its cluster timeout has passed; else null. */
export function clusterTimeoutReason(
  cluster: Pick<Cluster, 'created' | 'options'>,
  now = Date.now(),
): string | null {
  const at = clusterTimeoutAt(cluster);
  if (!at || at.getTime() > now) return null;
  const seconds = Math.round((at.getTime() - cluster.created.getTime()) / 1000);
  return `Cluster ran for its cluster_timeout of ${seconds} s`;
}

/** The earlier of the loop's next look and the cluster's timeout. */
export const lookBy = (next: Date, cluster: Pick<Cluster, 'created' | 'options'>): Date => {
  const at = clusterTimeoutAt(cluster);
  return at && at < next ? at : next;
};
