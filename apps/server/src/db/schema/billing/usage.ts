import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, varchar } from 'drizzle-orm/pg-core';
import { loopColumns, tstz } from '../columns.js';

/** What usage is grouped and filtered by, copied from the cluster when its minutes are metered. */
const usageDimensions = () => ({
  clusterId: integer('cluster_id').notNull(),
  clusterName: varchar('cluster_name', { length: 128 }).notNull(),
  workspaceId: integer('account_id').notNull(),
  organizationId: integer('organization_id').notNull(),
  userId: integer('user_id'),
  clusterType: varchar('cluster_type', { length: 16 }).notNull(),
  backendType: varchar('backend_type', { length: 32 }).notNull(),
  instanceType: varchar('instance_type', { length: 64 }).notNull(),
  zone: varchar('zone', { length: 64 }).notNull().default(''),
  gpuType: varchar('gpu_type', { length: 64 }).notNull().default(''),
  tags: jsonb('tags').$type<Record<string, string>>().notNull().default({}),
});

/**
 * Metering: one row per instance per minute it ran (any part of the minute counts), written once
 * the minute is over. The key (instance, minute) makes metering idempotent: a minute written twice
 * (a restart, two replicas) is one row. Everything a usage query groups by is copied in, so that
 * usage survives the clusters it was about. Money and credits are integers: micro-credits and
 * micro-dollars.
 */
export const usageMinutes = pgTable(
  'usage_minutes',
  {
    minute: tstz('minute').notNull(),
    instanceId: integer('instance_id').notNull(),
    ...usageDimensions(),
    cores: integer('cores').notNull(),
    memoryMib: integer('memory_mib').notNull(),
    gpus: integer('gpus').notNull().default(0),
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
    microCloudCost: bigint('micro_cloud_cost', { mode: 'number' }).notNull(),
    microCumulusCost: bigint('micro_cumulus_cost', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.minute] }), index('usage_minutes_minute_idx').on(t.minute)],
);

/**
 * Hourly rollup of usage_minutes per cluster and machine kind: what usage queries read. Rebuilt
 * for every hour metering touched (so it is exact and idempotent too).
 */
export const usageHourly = pgTable(
  'usage_hourly',
  {
    hour: tstz('hour').notNull(),
    ...usageDimensions(),
    instanceMinutes: integer('instance_minutes').notNull(),
    coreMinutes: bigint('core_minutes', { mode: 'number' }).notNull(),
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
    microCloudCost: bigint('micro_cloud_cost', { mode: 'number' }).notNull(),
    microCumulusCost: bigint('micro_cumulus_cost', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.clusterId, t.instanceType, t.zone, t.gpuType] }),
    index('usage_hourly_account_hour_idx').on(t.workspaceId, t.hour),
    index('usage_hourly_organization_hour_idx').on(t.organizationId, t.hour),
  ],
);

/**
 * Daily rollup of usage_hourly, rebuilt with it: what usage queries by day, week and month read,
 * so that long ranges stay fast as hours accumulate.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: tstz('day').notNull(),
    ...usageDimensions(),
    instanceMinutes: integer('instance_minutes').notNull(),
    coreMinutes: bigint('core_minutes', { mode: 'number' }).notNull(),
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
    microCloudCost: bigint('micro_cloud_cost', { mode: 'number' }).notNull(),
    microCumulusCost: bigint('micro_cumulus_cost', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.clusterId, t.instanceType, t.zone, t.gpuType] }),
    index('usage_daily_account_day_idx').on(t.workspaceId, t.day),
    index('usage_daily_organization_day_idx').on(t.organizationId, t.day),
  ],
);

/** The meter: one row the loop runner leases, holding how far metering has got. */
export const meters = pgTable('meters', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 32 }).notNull().unique(),
  /** Every minute before this one is metered. */
  meteredUntil: tstz('metered_until').notNull().default(sql`date_trunc('minute', now())`),
  ...loopColumns(),
});

export type UsageMinute = typeof usageMinutes.$inferSelect;
