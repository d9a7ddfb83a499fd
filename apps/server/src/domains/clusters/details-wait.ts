import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusters } from '../../db/schema/index.js';
import type { ClusterWaits } from './cluster-waits.js';

/** The longest a details request is held (`?wait_for_change=`), in seconds. */
export const MAX_DETAILS_WAIT_SECONDS = 10;

/**
 * What a client waiting for a starting cluster compares (`?seen=`): the first 16 hex digits of
 * the SHA-256 of every `current_state` in the details (cluster, infrastructure, processes,
 * instances) as `state@updated`, sorted and joined by commas. The Python client computes the same
 * (`cumulus.startup.details_version`).
 */
export function detailsVersion(details: unknown): string {
  const states: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const current = item as { state?: unknown; updated?: unknown } | null;
        if (key === 'current_state' && current && typeof current === 'object' && 'state' in current)
          states.push(`${current.state}@${current.updated ?? ''}`);
        else walk(item);
      }
    }
  };
  walk(details);
  return createHash('sha256').update(states.sort().join(',')).digest('hex').slice(0, 16);
}

/**
 * The cluster's details (`present(row)`, its row read afresh), held while their version is `seen`:
 * answered when a state of the cluster changes (a transition on this server wakes it; another
 * server's is seen at the next look), after `ms`, or when the caller goes away.
 */
export async function detailsOnceChanged<T>(
  db: Db,
  waits: ClusterWaits,
  clusterId: number,
  hold: { seen: string; ms: number; signal: AbortSignal },
  present: (row: typeof clusters.$inferSelect) => Promise<T>,
): Promise<T | null> {
  let last: T | null = null;
  const look = async () => {
    const [row] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
    if (!row) return null;
    last = await present(row);
    return detailsVersion(last) === hold.seen ? null : last;
  };
  return (await waits.until(clusterId, hold.ms, look, hold.signal)) ?? last;
}
