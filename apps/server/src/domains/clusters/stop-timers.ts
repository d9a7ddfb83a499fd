import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type Cluster, clusters } from '../../db/schema/index.js';
import { badRequest } from '../../http/errors.js';
import { isoTime } from '../../lib/time.js';
import { parseDurationSeconds } from './durations.js';
import { clusterTimeoutAt } from './reconcile/timeout.js';
import { isAtRest } from './states.js';

/** The scheduler's no-client shutdown when `scheduler_options.no_client_timeout` is absent (preloads/no_client_shutdown.py). */
export const DEFAULT_NO_CLIENT_TIMEOUT_SECONDS = 120;

const OFF = new Set(['', 'none', 'null', 'false', '0']);

/**
 * Seconds of `no_client_timeout` (absent: the default; null, "none", 0: off). What the cluster
 * was created with, or what its scheduler reported a client set since (`cumulus_set_keepalive`).
 */
export function noClientTimeoutSeconds(schedulerOptions: Record<string, unknown>): number | null {
  if (!('no_client_timeout' in schedulerOptions)) return DEFAULT_NO_CLIENT_TIMEOUT_SECONDS;
  const value = schedulerOptions.no_client_timeout;
  if (value === null || value === false || (typeof value === 'string' && OFF.has(value.trim().toLowerCase())))
    return null;
  const seconds = parseDurationSeconds(value);
  return seconds ? Math.round(seconds) : null;
}

/** A `no_client_timeout` that is neither off nor a duration is refused at creation, like `idle_timeout`. */
export function assertNoClientTimeout(schedulerOptions: Record<string, unknown>) {
  const value = schedulerOptions.no_client_timeout;
  if (value === undefined || value === null || value === false) return;
  if (typeof value === 'string' && OFF.has(value.trim().toLowerCase())) return;
  if (parseDurationSeconds(value) === null)
    throw badRequest(`"${String(value)}" is not a valid no_client_timeout.`);
}

export type StopTimer = {
  timer: 'cluster_timeout' | 'idle_timeout' | 'no_client_timeout';
  seconds: number;
  at: string | null;
};

/**
 * The timers that will stop a live cluster, soonest first where known: `cluster_timeout` at a
 * fixed time, `idle_timeout` after that long without work, `no_client_timeout` that long after
 * its last client left. Batch clusters end with their jobs, and a cluster at rest has none.
 */
export function stopTimers(cluster: Cluster): StopTimer[] {
  if (isAtRest(cluster.state) || cluster.desiredState !== 'ready') return [];
  if ((cluster.options as { batch_job_ids?: unknown }).batch_job_ids) return [];
  const timers: StopTimer[] = [];
  const at = clusterTimeoutAt(cluster);
  if (at)
    timers.push({
      timer: 'cluster_timeout',
      seconds: Math.round((at.getTime() - cluster.created.getTime()) / 1000),
      at: isoTime(at),
    });
  if (cluster.idleTimeoutSeconds > 0)
    timers.push({ timer: 'idle_timeout', seconds: cluster.idleTimeoutSeconds, at: null });
  const noClient = noClientTimeoutSeconds(cluster.schedulerOptions);
  if (noClient) timers.push({ timer: 'no_client_timeout', seconds: noClient, at: null });
  return timers;
}

/** A client changed the no-client timeout at run time (the scheduler reports it): what `stopTimers` reads. */
export async function recordNoClientTimeout(db: Db, clusterId: number, seconds: number | null) {
  await db
    .update(clusters)
    .set({
      schedulerOptions: sql`${clusters.schedulerOptions} || ${JSON.stringify({ no_client_timeout: seconds })}::jsonb`,
    })
    .where(eq(clusters.id, clusterId));
}
