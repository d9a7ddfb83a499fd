import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type Cluster, clusters, type User } from '../../db/schema/index.js';
import { type OffsetQuery, paginate } from '../../http/pagination.js';
import { isoTimeOrNull } from '../../lib/time.js';
import { usernamesOf, workspaceNamesOf } from '../identity/index.js';
import { presentSummaries } from './present.js';

/** `POST .../staff-has-seen?seen=`: staff mark a cluster (a failed one, say) as looked at, or not. */
export async function markStaffSeen(db: Db, staff: User, cluster: Cluster, seen: boolean) {
  const [row] = await db
    .update(clusters)
    .set(
      seen
        ? { staffSeenAt: new Date(), staffSeenById: staff.id }
        : { staffSeenAt: null, staffSeenById: null },
    )
    .where(eq(clusters.id, cluster.id))
    .returning();
  const seenBy = row!.staffSeenById;
  const by = seenByOf(seenBy, await usernamesOf(db, seenBy === null ? [] : [seenBy]));
  return {
    id: row!.id,
    staff_has_seen: row!.staffSeenAt !== null,
    staff_seen_at: isoTimeOrNull(row!.staffSeenAt),
    staff_seen_by: by,
  };
}

const seenByOf = (id: number | null, usernames: Map<number, string>) => {
  const username = id === null ? undefined : usernames.get(id);
  return id !== null && username !== undefined ? { id, username } : null;
};

/**
 * Clusters needing attention: those that failed (`error`), newest first, which staff have not
 * marked seen yet (`seen` true: those they have).
 */
export async function listAttentionClusters(db: Db, query: OffsetQuery & { seen: boolean }) {
  const where = and(
    eq(clusters.state, 'error'),
    query.seen ? isNotNull(clusters.staffSeenAt) : isNull(clusters.staffSeenAt),
  );
  const { rows, count: total } = await paginate(
    query,
    db.select().from(clusters).where(where).orderBy(desc(clusters.stateUpdated), desc(clusters.id)),
    db.$count(clusters, where),
  );
  const [accounts, seenBy] = await Promise.all([
    workspaceNamesOf(
      db,
      rows.map((c) => c.workspaceId),
    ),
    usernamesOf(
      db,
      rows.flatMap((c) => (c.staffSeenById ? [c.staffSeenById] : [])),
    ),
  ]);
  const summaries = await presentSummaries(db, rows, accounts);
  const items = summaries.map((summary, index) => {
    const row = rows[index]!;
    return {
      ...summary,
      reason: row.stateReason,
      staff_has_seen: row.staffSeenAt !== null,
      staff_seen_at: isoTimeOrNull(row.staffSeenAt),
      staff_seen_by: seenByOf(row.staffSeenById, seenBy),
    };
  });
  return { items, count: total };
}
