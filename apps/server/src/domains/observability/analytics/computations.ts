import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  analyticsExceptions,
  type Cluster,
  computations,
  daskSchedulers,
  taskGroups,
} from '../../../db/schema/index.js';
import { notFound } from '../../../http/errors.js';
import { isoTime, isoTimeOrNull } from '../../../lib/time.js';
import { isEnded } from '../../clusters/index.js';
import { presentComputation, presentException } from './present.js';

/** What one computation ran (its task groups) and what it raised; what runs now, with progress. */

/** A task group's tasks that are finished: in memory, released or forgotten after use, or erred. */
const DONE_STATES = ['memory', 'released', 'forgotten', 'erred'];
/** Bounds of the progress answer: it is polled while a cluster runs. */
export const PROGRESS_COMPUTATIONS = 5;
export const PROGRESS_GROUPS = 100;
const DETAIL_GROUPS = 500;
const DETAIL_EXCEPTIONS = 50;

const sumOf = (states: Record<string, number>, names: string[]) =>
  names.reduce((total, name) => total + (states[name] ?? 0), 0);

function presentGroup(g: typeof taskGroups.$inferSelect) {
  const total = sumOf(g.states, Object.keys(g.states)) || g.nTasks;
  return {
    name: g.name,
    prefix: g.prefix,
    start: isoTimeOrNull(g.start),
    stop: isoTimeOrNull(g.stop),
    duration: g.start && g.stop ? Math.max(0, (g.stop.getTime() - g.start.getTime()) / 1000) : null,
    compute_seconds: g.computeSeconds,
    durations: g.durations,
    nbytes: g.nbytes,
    n_tasks: total,
    n_done: Math.min(total, sumOf(g.states, DONE_STATES)),
    n_erred: g.states.erred ?? 0,
    states: g.states,
  };
}

const groupOrder = [sql`${taskGroups.start} asc nulls last`, asc(taskGroups.name)];

/** `analytics/{ws}/cluster/{id}/computations/{computation}`: one computation with its groups and exceptions. */
export async function computationDetail(db: Db, cluster: Cluster, computationId: number) {
  const [found] = await db
    .select({
      computation: computations,
      schedulerId: daskSchedulers.schedulerId,
      closed: daskSchedulers.closed,
    })
    .from(computations)
    .innerJoin(daskSchedulers, eq(daskSchedulers.id, computations.schedulerRef))
    .where(and(eq(computations.clusterId, cluster.id), eq(computations.id, computationId)));
  if (!found) throw notFound('Computation not found.');
  const { computation, schedulerId } = found;
  const live = found.closed === null && !isEnded(cluster.state);
  const [groups, raised] = await Promise.all([
    db
      .select()
      .from(taskGroups)
      .where(eq(taskGroups.computationId, computation.id))
      .orderBy(...groupOrder)
      .limit(DETAIL_GROUPS),
    db
      .select()
      .from(analyticsExceptions)
      .where(
        and(
          eq(analyticsExceptions.clusterId, cluster.id),
          eq(analyticsExceptions.computation, computation.identifier),
        ),
      )
      .orderBy(desc(analyticsExceptions.time), desc(analyticsExceptions.id))
      .limit(DETAIL_EXCEPTIONS),
  ]);
  const bySeconds = [...groups].sort((a, b) => b.computeSeconds - a.computeSeconds);
  return {
    ...presentComputation(
      computation,
      { schedulerId, live },
      {
        prefixes: [...new Set(bySeconds.map((g) => g.prefix))],
        computeSeconds: groups.reduce((total, g) => total + g.computeSeconds, 0),
        exceptions: raised.length,
      },
    ),
    task_groups: groups.map(presentGroup),
    exceptions: raised.map((e) => presentException(e, schedulerId)),
  };
}

/**
 * `analytics/{ws}/cluster/{id}/progress`: the computations running now (not finished, on a
 * scheduler that has not closed) and their task groups' done/total, as the scheduler last
 * reported them (every few seconds while they change). Nothing once the cluster has ended.
 */
export async function clusterProgress(db: Db, cluster: Cluster) {
  const running = isEnded(cluster.state)
    ? []
    : await db
        .select({ computation: computations, schedulerId: daskSchedulers.schedulerId })
        .from(computations)
        .innerJoin(daskSchedulers, eq(daskSchedulers.id, computations.schedulerRef))
        .where(
          and(
            eq(computations.clusterId, cluster.id),
            isNull(computations.stop),
            isNull(daskSchedulers.closed),
          ),
        )
        .orderBy(desc(computations.start), desc(computations.id))
        .limit(PROGRESS_COMPUTATIONS);
  const groups = running.length
    ? await db
        .select()
        .from(taskGroups)
        .where(
          inArray(
            taskGroups.computationId,
            running.map((r) => r.computation.id),
          ),
        )
        .orderBy(...groupOrder)
    : [];
  return {
    cluster_id: cluster.id,
    time: isoTime(new Date()),
    computations: running.map(({ computation, schedulerId }) => {
      const mine = groups.filter((g) => g.computationId === computation.id).map(presentGroup);
      return {
        id: computation.id,
        identifier: computation.identifier,
        scheduler_id: schedulerId,
        start: isoTime(computation.start),
        updated: isoTime(computation.updated),
        code: computation.code,
        n_tasks: mine.reduce((total, g) => total + g.n_tasks, 0),
        n_done: mine.reduce((total, g) => total + g.n_done, 0),
        n_groups: mine.length,
        task_groups: mine.slice(0, PROGRESS_GROUPS),
      };
    }),
  };
}
