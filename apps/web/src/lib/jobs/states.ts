import type { JobState } from '@/data/jobs/jobs-query';

// Batch job states (pending -> running -> done | failed | cancelled) and what the console does in each.

export const JOB_STATES = [
  'pending',
  'running',
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly JobState[];

export const isJobState = (value: string): value is JobState =>
  (JOB_STATES as readonly string[]).includes(value);

/** Still pending or running: its tasks may change, and it may be cancelled. */
export const isLive = (state: string | undefined) => state === 'pending' || state === 'running';

/** A live job's pages refresh every 2 s (as builds do). */
export const JOB_POLL_MS = 2_000;
/** A quiet list still picks up jobs submitted from Python. */
export const QUIET_JOBS_POLL_MS = 30_000;

export const jobsPollMs = (jobs: readonly { state: string }[]) =>
  jobs.some((job) => isLive(job.state)) ? JOB_POLL_MS : QUIET_JOBS_POLL_MS;

/** Lines still arrive for a while after a job ends (its instances' last words). */
export const LOG_TRAILING_MS = 60_000;

/**
 * Seconds from `start` to `end`, or to now while it has not ended; null before it starts.
 * (A job's started -> completed, a task's start -> stop.)
 */
export function elapsedSeconds(start: string | null, end: string | null, now = Date.now()): number | null {
  if (!start) return null;
  return ((end ? new Date(end).getTime() : now) - new Date(start).getTime()) / 1000;
}

/** A task's new log lines are asked for every 3 s (the console's log polling timer, section 9). */
export const LOG_POLL_MS = 3_000;
