import { sql } from 'drizzle-orm';
import { check, pgTable, smallint } from 'drizzle-orm/pg-core';
import { tstz } from '../columns.js';

/**
 * One row: when the control plane (any replica sharing this database) last served, and since when
 * it has served without a gap. Instances are judged by their heartbeats from `servingSince` on, so
 * time when no server could hear them (every replica down, the database unreachable) never counts
 * against them (loops/serving.ts).
 */
export const controlPlane = pgTable(
  'control_plane',
  {
    id: smallint('id').primaryKey().default(1),
    servingSince: tstz('serving_since').notNull(),
    lastServed: tstz('last_served').notNull(),
  },
  (t) => [check('control_plane_one_row', sql`${t.id} = 1`)],
);
