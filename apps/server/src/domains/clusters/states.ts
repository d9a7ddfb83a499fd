import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  type Cluster,
  type ClusterProcess,
  type ClusterState,
  clusters,
  type Instance,
  type InstanceState,
  type ProcessState,
} from '../../db/schema/index.js';

/**
 * The words for where a cluster, process or instance stands, written once: every "is it live or
 * ended" in the server asks here, in TypeScript or as an SQL fragment of the same sets.
 */

/** Nothing runs and nothing will again (cluster, process and instance alike). */
export const ENDED_STATES = ['stopped', 'error'] as const satisfies readonly (ClusterState &
  ProcessState &
  InstanceState)[];
/** A cluster that runs nothing now: ended, or paused (it may be resumed). */
export const CLUSTER_AT_REST = ['stopped', 'error', 'paused'] as const satisfies readonly ClusterState[];
/** A cluster that runs or is on its way to. */
export const CLUSTER_UP = [
  'pending',
  'starting',
  'scaling',
  'ready',
] as const satisfies readonly ClusterState[];
/** A Dask process that runs or is on its way to (the client's "planned" workers). */
export const PROCESS_UP = ['pending', 'starting', 'started'] as const satisfies readonly ProcessState[];

const includes = (set: readonly string[], state: string) => set.includes(state);

/** A cluster's state in a sentence: "etl failed", not "etl is error". */
export const stateSentence = (name: string, state: string) =>
  state === 'error' ? `${name} failed` : `${name} is ${state}`;

export const isEnded = (state: string) => includes(ENDED_STATES, state);
export const isAtRest = (state: ClusterState) => includes(CLUSTER_AT_REST, state);

type ClusterStand = Pick<Cluster, 'desiredState' | 'state'>;

/** Wanted running and running or on its way: it holds its name, its cores and its subdomain. */
export const isLive = (c: ClusterStand) => c.desiredState === 'ready' && includes(CLUSTER_UP, c.state);

/**
 * Not wanted running and at rest: nothing of it runs and the control loop has nothing left to
 * do. Until then its instances may still call (their cluster token works).
 */
export const isSettled = (c: ClusterStand) => c.desiredState !== 'ready' && isAtRest(c.state);

/** A paused cluster that waits to be resumed (a create of its name resumes it). */
export const isResumable = (c: ClusterStand) => c.desiredState === 'paused' && c.state === 'paused';

/**
 * The state users see. A request (stop, pause, resume) shows at once, as the state the
 * reconciler moves to next and with the request's reason, though only the reconciler writes the
 * state and its history.
 */
export function shownState(
  c: Pick<Cluster, 'desiredState' | 'desiredReason' | 'state' | 'stateReason' | 'stateUpdated' | 'updated'>,
): { state: ClusterState; reason: string; updated: Date } {
  if (c.desiredState !== 'ready' && includes(CLUSTER_UP, c.state))
    return {
      state: c.desiredState === 'paused' ? 'pausing' : 'stopping',
      reason: c.desiredReason,
      updated: c.updated,
    };
  if (c.desiredState === 'ready' && c.state === 'paused')
    return { state: 'pending', reason: c.desiredReason, updated: c.updated };
  return { state: c.state, reason: c.stateReason, updated: c.stateUpdated };
}

/** A process that is wanted and has not ended: it counts as one of the cluster's workers. */
export const isActiveProcess = (p: Pick<ClusterProcess, 'desiredState' | 'state'>) =>
  p.desiredState === 'started' && !isEnded(p.state);

/** An instance that is wanted and has not ended. */
export const isWantedInstance = (instance: Pick<Instance, 'desiredState' | 'state'>) =>
  instance.desiredState === 'ready' && !isEnded(instance.state);

/** An instance whose agent should keep running (the heartbeat answers `stop` otherwise). */
export const instanceShouldRun = (
  instance: Pick<Instance, 'desiredState' | 'state'>,
  process: Pick<ClusterProcess, 'desiredState'>,
) => isWantedInstance(instance) && process.desiredState === 'started';

// The same sets as SQL, for queries that filter on them.
// Literals, not parameters: the sets are constants, and a literal list compares with an enum column.
const inSet = (column: AnyPgColumn, set: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(set.map((s) => `'${s}'`).join(', '))})`;

export const sqlIsEnded = (column: AnyPgColumn): SQL => inSet(column, ENDED_STATES);
export const sqlNotEnded = (column: AnyPgColumn): SQL => sql`not ${inSet(column, ENDED_STATES)}`;
export const sqlProcessUp = (column: AnyPgColumn): SQL => inSet(column, PROCESS_UP);
/** `isLive` of the clusters table. */
export const sqlLiveCluster: SQL = sql`(${clusters.desiredState} = 'ready' and ${inSet(clusters.state, CLUSTER_UP)})`;
/** `isSettled` of the clusters table. */
export const sqlSettledCluster: SQL = sql`(${clusters.desiredState} <> 'ready' and ${inSet(clusters.state, CLUSTER_AT_REST)})`;
/** `isResumable` of the clusters table. */
export const sqlResumableCluster: SQL = sql`(${clusters.desiredState} = 'paused' and ${clusters.state} = 'paused')`;
