import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { controlPlane } from '../db/schema/index.js';

/**
 * Since when the control plane has been serving without a gap, as every replica sharing the
 * database sees it: each one marks the shared row every `markEveryMs`, and a mark that finds the
 * last one (by any replica) older than `gapMs` starts a new serving period. Time when no server
 * could hear instances — every replica down or restarting, the database unreachable, the process
 * frozen — thus never counts against their heartbeats, while one replica restarting among others
 * that kept serving grants nothing.
 */
export class ServingClock {
  #since: Date | null = null;
  /** This process's clock when it last marked (0: never). */
  #markedAt = 0;

  constructor(
    private readonly db: Db,
    readonly markEveryMs: number,
    readonly gapMs: number = 3 * markEveryMs,
  ) {}

  /** Records that the control plane serves now; answers since when it has without a gap. */
  async mark(): Promise<Date> {
    const now = new Date();
    const gapStart = new Date(now.getTime() - this.gapMs);
    const [row] = await this.db
      .insert(controlPlane)
      .values({ id: 1, servingSince: now, lastServed: now })
      .onConflictDoUpdate({
        target: controlPlane.id,
        set: {
          servingSince: sql`case when ${controlPlane.lastServed} < ${gapStart.toISOString()}::timestamptz
            then excluded.serving_since else ${controlPlane.servingSince} end`,
          lastServed: sql`greatest(${controlPlane.lastServed}, excluded.last_served)`,
        },
      })
      .returning({ servingSince: controlPlane.servingSince });
    this.#since = row!.servingSince;
    this.#markedAt = Date.now();
    return this.#since;
  }

  /**
   * Since when heartbeats count, or null while this process cannot tell: it has not marked within
   * the gap (it has just started, the database is unreachable, it was frozen) and a gap may be
   * under way that the next mark will find.
   */
  since(): Date | null {
    if (this.#since === null || Date.now() - this.#markedAt > this.gapMs) return null;
    return this.#since;
  }
}
