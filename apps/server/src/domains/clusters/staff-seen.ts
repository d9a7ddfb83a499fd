import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type Cluster, clusters, type User, users } from '../../db/schema/index.js';
import { isoTimeOrNull } from '../../lib/time.js';

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
  const [by] = row!.staffSeenById
    ? await db
        .select({ id: users.id, username: users.username })
        .from(users)
        .where(eq(users.id, row!.staffSeenById))
    : [];
  return {
    id: row!.id,
    staff_has_seen: row!.staffSeenAt !== null,
    staff_seen_at: isoTimeOrNull(row!.staffSeenAt),
    staff_seen_by: by ?? null,
  };
}
