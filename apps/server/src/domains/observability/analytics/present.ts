import type {
  analyticsExceptions,
  analyticsSpans,
  Computation,
  DaskScheduler,
} from '../../../db/schema/index.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import type { ClusterEvent } from '../../clusters/index.js';

/** Rows to the wire shapes of schemas.ts (snake_case, ISO times with an offset). */

const seconds = (start: Date | null, stop: Date | null) =>
  start && stop ? Math.max(0, (stop.getTime() - start.getTime()) / 1000) : null;

/** Where a computation's scheduler stands: its id, and whether it (and its cluster) still run. */
export interface SchedulerOf {
  schedulerId: string;
  live: boolean;
}

/**
 * A computation's status, the one place it is decided: finished once the scheduler reported its
 * stop (reports.ts settles it when all its task groups are done), else running only while its
 * scheduler can still finish it.
 */
export type ComputationStatus = 'running' | 'finished' | 'erred' | 'unfinished';

export function computationStatus(c: Computation, live: boolean, exceptions: number): ComputationStatus {
  if (c.stop) return exceptions > 0 ? 'erred' : 'finished';
  return live ? 'running' : 'unfinished';
}

export function presentComputation(
  c: Computation,
  { schedulerId, live }: SchedulerOf,
  extra: { prefixes: string[]; computeSeconds: number; exceptions: number },
) {
  return {
    id: c.id,
    identifier: c.identifier,
    cluster_id: c.clusterId,
    scheduler_id: schedulerId,
    start: isoTime(c.start),
    stop: isoTimeOrNull(c.stop),
    duration: seconds(c.start, c.stop),
    n_tasks: c.nTasks,
    n_groups: c.nGroups,
    states: c.states,
    code: c.code,
    compute_seconds: extra.computeSeconds,
    task_prefixes: extra.prefixes,
    n_exceptions: extra.exceptions,
    status: computationStatus(c, live, extra.exceptions),
  };
}

/** A task prefix's sums over its task groups (queries.ts). */
export interface PrefixRow {
  prefix: string;
  n_groups: number;
  n_tasks: number;
  compute_seconds: number;
  nbytes: number;
  start: Date | null;
  stop: Date | null;
}

export function presentTaskPrefix(
  p: PrefixRow,
  durations: Record<string, number>,
  states: Record<string, number>,
) {
  return { ...p, durations, states, start: isoTimeOrNull(p.start), stop: isoTimeOrNull(p.stop) };
}

export function presentSample(row: Record<string, number | string | Date>) {
  const time = row.time instanceof Date ? row.time : new Date(Number(row.bucket) * 1000);
  return {
    time: isoTime(time),
    n_workers: Number(row.n_workers ?? row.nWorkers),
    threads: Number(row.threads),
    memory: Number(row.memory),
    n_tasks: Number(row.n_tasks ?? row.nTasks),
    processing: Number(row.processing),
  };
}

export function presentSpan(s: typeof analyticsSpans.$inferSelect) {
  return {
    id: s.id,
    identifier: s.identifier,
    cluster_id: s.clusterId,
    scheduler_id: s.schedulerId,
    name: s.name,
    start: isoTimeOrNull(s.start),
    stop: isoTimeOrNull(s.stop),
    duration: seconds(s.start, s.stop),
    callstack: s.callstack ?? null,
    data: s.data,
    created: isoTime(s.created),
    updated: isoTime(s.updated),
  };
}

export function presentEvent(e: ClusterEvent) {
  const data = e.data ?? null;
  const text = (key: string) => (typeof data?.[key] === 'string' ? (data[key] as string) : null);
  return {
    id: e.id,
    name: e.topic,
    message: e.message,
    action: text('action'),
    worker: text('worker'),
    level: e.level,
    created: isoTime(e.created),
    data,
  };
}

export function presentException(e: typeof analyticsExceptions.$inferSelect, schedulerId: string) {
  return {
    id: e.id,
    cluster_id: e.clusterId,
    scheduler_id: schedulerId,
    computation: e.computation,
    key: e.taskKey,
    task_prefix: e.prefix,
    exception: e.exception,
    traceback: e.traceback,
    worker: e.worker,
    time: isoTime(e.time),
  };
}

export function presentScheduler(s: DaskScheduler) {
  return {
    scheduler_id: s.schedulerId,
    created: isoTime(s.created),
    closed: isoTimeOrNull(s.closed),
    close_reason: s.closeReason,
    last_report: isoTimeOrNull(s.lastReport),
    info: s.info,
  };
}
