import { inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { daskSchedulers } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import { isoTime } from '../../../lib/time.js';
import { recordClusterEvents, workspaceClusters } from '../../clusters/index.js';
import { usernamesOf } from '../../identity/index.js';
import { closeScheduler, upsertScheduler } from './reports.js';
import type { analyticsListQuery, closeBody, eventsBody, registerBody } from './schemas.js';

/** Scheduler analytics events are cluster events of kind `analytics`; `register` also records the scheduler. */
export async function recordRegister(db: Db, clusterId: number, body: z.infer<typeof registerBody>) {
  await db.transaction(async (tx) => {
    await upsertScheduler(tx, clusterId, body.scheduler_id, body);
    await recordClusterEvents(tx, [
      {
        clusterId,
        kind: 'analytics',
        topic: 'register',
        message: `scheduler ${body.scheduler_id} registered`,
        data: body,
      },
    ]);
  });
  return { id: clusterId, scheduler_id: body.scheduler_id };
}

export async function recordEvents(db: Db, clusterId: number, body: z.infer<typeof eventsBody>) {
  if (body.events.length === 0) return { stored: 0 };
  await recordClusterEvents(
    db,
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
    await recordClusterEvents(tx, [
      {
        clusterId,
        kind: 'analytics',
        topic: 'close',
        message: body.reason ? `scheduler closing: ${body.reason}` : 'scheduler closing',
        data: body,
      },
    ]);
  });
  return { ok: true };
}

/** `analytics/{ws}/clusters/list`: the workspace's clusters with their scheduler ids, newest first. */
export async function listAnalyticsClusters(
  db: Db,
  workspaceId: number,
  query: z.infer<typeof analyticsListQuery>,
) {
  const found = await workspaceClusters(db, workspaceId, {
    since: query.since !== undefined ? new Date(query.since * 1000) : undefined,
    creatorId: query.user,
    limit: query.limit,
    offset: query.offset,
  });
  const creators = await usernamesOf(
    db,
    found.flatMap((c) => (c.creatorId === null ? [] : [c.creatorId])),
  );
  const ids = found.map((c) => c.id);
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
  return found.map((cluster) => ({
    id: cluster.id,
    name: cluster.name,
    created: isoTime(cluster.created),
    state: cluster.state,
    creator: (cluster.creatorId === null ? undefined : creators.get(cluster.creatorId)) ?? null,
    scheduler_id: schedulerOf.get(cluster.id) ?? null,
    n_workers: cluster.desiredWorkers,
    idle_timeout: cluster.idleTimeoutSeconds,
  }));
}
