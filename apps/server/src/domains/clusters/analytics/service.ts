import { and, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusterEvents, clusters, daskSchedulers } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { isoTime } from '../../../lib/time.js';
import { userView } from '../../identity/index.js';
import { closeScheduler, upsertScheduler } from './reports.js';
import type { analyticsListQuery, closeBody, eventsBody, registerBody } from './schemas.js';

/** Scheduler analytics events are cluster events of kind `analytics`; `register` also records the scheduler. */
export async function recordRegister(db: Db, clusterId: number, body: z.infer<typeof registerBody>) {
  await db.transaction(async (tx) => {
    await upsertScheduler(tx, clusterId, body.scheduler_id, body);
    await tx.insert(clusterEvents).values({
      clusterId,
      kind: 'analytics',
      topic: 'register',
      message: `scheduler ${body.scheduler_id} registered`,
      data: body,
    });
  });
  return { id: clusterId, scheduler_id: body.scheduler_id };
}

export async function recordEvents(db: Db, clusterId: number, body: z.infer<typeof eventsBody>) {
  if (body.events.length === 0) return { stored: 0 };
  await db.insert(clusterEvents).values(
    body.events.map((e) => ({
      clusterId,
      kind: 'analytics',
      topic: e.name ?? 'event',
      message: e.message ?? e.action ?? '',
      data: { ...e, ident: body.ident },
    })),
  );
  return { stored: body.events.length };
}

export async function recordClose(db: Db, clusterId: number, body: z.infer<typeof closeBody>) {
  const schedulerId = body.scheduler_id || body.ident;
  await db.transaction(async (tx) => {
    if (schedulerId) await closeScheduler(tx, clusterId, schedulerId, body.reason ?? '');
    await tx.insert(clusterEvents).values({
      clusterId,
      kind: 'analytics',
      topic: 'close',
      message: body.reason ? `scheduler closing: ${body.reason}` : 'scheduler closing',
      data: body,
    });
  });
  return { ok: true };
}

/** `analytics/{ws}/clusters/list`: the workspace's clusters with their scheduler ids, newest first. */
export async function listAnalyticsClusters(
  db: Db,
  workspaceId: number,
  query: z.infer<typeof analyticsListQuery>,
) {
  const rows = await db
    .select({ cluster: clusters, creator: userView.username })
    .from(clusters)
    .leftJoin(userView, eq(userView.id, clusters.creatorId))
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        query.since !== undefined ? gte(clusters.created, new Date(query.since * 1000)) : undefined,
        query.user !== undefined ? eq(clusters.creatorId, query.user) : undefined,
      ),
    )
    .orderBy(desc(clusters.created), desc(clusters.id))
    .limit(query.limit)
    .offset(query.offset);
  const ids = rows.map((r) => r.cluster.id);
  const registered =
    ids.length === 0
      ? []
      : await db
          .select({ clusterId: daskSchedulers.clusterId, schedulerId: daskSchedulers.schedulerId })
          .from(daskSchedulers)
          .where(inArray(daskSchedulers.clusterId, ids))
          .orderBy(daskSchedulers.created, daskSchedulers.id);
  // The newest scheduler of each cluster.
  const schedulerOf = new Map(registered.map((r) => [r.clusterId, r.schedulerId]));
  return rows.map(({ cluster, creator }) => ({
    id: cluster.id,
    name: cluster.name,
    created: isoTime(cluster.created),
    state: cluster.state,
    creator,
    scheduler_id: schedulerOf.get(cluster.id) ?? null,
    n_workers: cluster.desiredWorkers,
    idle_timeout: cluster.idleTimeoutSeconds,
  }));
}
