import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';

// The cluster states clients know, and what the console does in each.

export const CLUSTER_STATES = [
  'pending',
  'starting',
  'scaling',
  'ready',
  'pausing',
  'paused',
  'stopping',
  'stopped',
  'error',
] as const;
export type ClusterState = (typeof CLUSTER_STATES)[number];

// The list above and the API's enum must be the same set: each line fails to compile otherwise.
type ApiClusterState = ClusterSummary['currentState']['state'];
const _everyApiState: Record<ApiClusterState, true> = Object.fromEntries(
  CLUSTER_STATES.map((s) => [s, true]),
) as Record<ClusterState, true>;
const _noExtraState: ApiClusterState[] = [...CLUSTER_STATES];

/** On their way somewhere: pages showing such a cluster refresh quickly. */
const CHANGING: ReadonlySet<string> = new Set(['pending', 'starting', 'scaling', 'pausing', 'stopping']);
/** Nothing more will happen to the cluster (until it is resumed). */
const ENDED: ReadonlySet<string> = new Set(['stopped', 'error', 'paused']);

export const isChanging = (state: string | undefined) => state !== undefined && CHANGING.has(state);
export const hasEnded = (state: string | undefined) => state !== undefined && ENDED.has(state);
/** A stop would do something: the cluster is neither stopping nor over. */
export const isStoppable = (state: string) => state !== 'stopping' && !ENDED.has(state);

/** Refresh every 3 s while something changes (the console's polling timer, section 9). */
export const CHANGING_POLL_MS = 3_000;
/** A quiet Dashboard still picks up clusters started from Python. */
export const QUIET_POLL_MS = 30_000;
/** A ready cluster may still lose a worker; its page looks again now and then. */
export const READY_POLL_MS = 10_000;

export function dashboardPollMs(clusters: readonly { currentState: { state: string } }[]): number {
  return clusters.some((cluster) => isChanging(cluster.currentState.state))
    ? CHANGING_POLL_MS
    : QUIET_POLL_MS;
}

/** How often a cluster's page refreshes in `state`; never once the cluster is over. */
export function clusterPollMs(state: string | undefined): number | false {
  if (hasEnded(state)) return false;
  return state === 'ready' ? READY_POLL_MS : CHANGING_POLL_MS;
}

/** How a sentence says a cluster is in `state`: "etl failed", not "etl is error". */
export function clusterStateSentence(name: string, state: string): string {
  if (state === 'error') return `${name} failed`;
  return `${name} is ${state}`;
}

/** "In which states can I filter": the Dashboard's `state:` values. */
export const isClusterState = (value: string): value is ClusterState =>
  (CLUSTER_STATES as readonly string[]).includes(value);
