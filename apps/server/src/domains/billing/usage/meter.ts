import { and, eq, gte, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  meters,
  organizationBilling,
  usageDaily,
  usageHourly,
  usageMinutes,
} from '../../../db/schema/index.js';
import { type LoopDomain, loopRows } from '../../../loops/runner.js';
import { jobClusterView } from '../../batch/index.js';
import { clusterView, instanceSpecView, instanceView } from '../../clusters/index.js';
import { workspaceView } from '../../identity/index.js';
import { hourlyPrice, minutePrice, type Rates } from './prices.js';

const MINUTE = 60_000;
/** A minute is metered this long after it ends (instances report their stop within it). */
const SETTLE_MS = 5_000;
/** At most this much is metered per round; a server that was down catches up round after round. */
const MAX_WINDOW_MS = 6 * 3_600_000;
const INSERT_CHUNK = 1000;

export interface MeterContext {
  db: Db;
  rates: Rates;
  /** Test hook: how long a "minute" is (60 s in production). */
  minuteMs?: number;
}

/**
 * Metering as a domain of the loop runner: one row (`meters`), leased so that one replica meters
 * at a time, due shortly after each minute ends. Each round writes the instance-minutes since
 * where it got to and rebuilds the hourly rollup of the hours it touched.
 */
export function meterDomain(ctx: MeterContext): LoopDomain {
  return {
    name: 'metering',
    rows: { ...loopRows(meters), where: sql`${meters.name} = 'instances'` },
    reconcile: (id) => meterOnce(ctx, id),
    backoff: { initialMs: 5_000, capMs: 60_000 },
    intervalMs: 5_000,
    concurrency: 1,
  };
}

/** The meter's and the limits loop's rows, made on first start; metering begins at the current minute. */
export async function ensureMeter(db: Db): Promise<void> {
  await db
    .insert(meters)
    .values([{ name: 'instances' }, { name: 'limits' }])
    .onConflictDoNothing();
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

async function meterOnce(ctx: MeterContext, id: number): Promise<Date> {
  const unit = ctx.minuteMs ?? MINUTE;
  const [meter] = await ctx.db.select().from(meters).where(eq(meters.id, id));
  const from = meter!.meteredUntil.getTime();
  const settled = floorTo(Date.now() - SETTLE_MS, unit);
  const to = Math.min(settled, from + MAX_WINDOW_MS);
  if (to > from) {
    await meterWindow(ctx, new Date(from), new Date(to), unit);
    await ctx.db
      .update(meters)
      .set({ meteredUntil: new Date(to) })
      .where(eq(meters.id, id));
  }
  return to < settled ? new Date() : new Date(floorTo(Date.now(), unit) + unit + Math.min(SETTLE_MS, unit));
}

const clusterType = (tags: Record<string, string>, batch: boolean) =>
  batch ? 'batch' : (tags['cumulus-cluster-type'] ?? tags['coiled-cluster-type'] ?? 'standard').slice(0, 16);

/** Writes every minute in [from, to) that an instance ran any part of, then the hours' rollups. */
export async function meterWindow(ctx: MeterContext, from: Date, to: Date, unit = MINUTE): Promise<number> {
  const { db } = ctx;
  const instance = instanceView;
  const cluster = clusterView;
  const spec = instanceSpecView;
  const ended = sql`coalesce(${instance.releasedAt}, case when ${instance.state} in ('stopped', 'error') then ${instance.stateUpdated} end)`;
  const ran = await db
    .select({
      instance: { id: instance.id, launchedAt: instance.launchedAt, instanceType: instance.instanceType },
      cluster: {
        id: cluster.id,
        name: cluster.name,
        workspaceId: cluster.workspaceId,
        creatorId: cluster.creatorId,
        backendType: cluster.backendType,
        tags: cluster.tags,
        options: cluster.options,
      },
      organizationId: workspaceView.organizationId,
      creditValue: organizationBilling.creditValueMicroUsd,
      spec: {
        instanceType: spec.instanceType,
        cores: spec.cores,
        memoryMib: spec.memoryMib,
        gpus: spec.gpus,
      },
      ended: sql<string | null>`${ended}`,
      batch: sql<boolean>`exists (select 1 from ${jobClusterView} where ${jobClusterView.clusterId} = ${cluster.id})`,
    })
    .from(instance)
    .innerJoin(cluster, eq(cluster.id, instance.clusterId))
    .innerJoin(workspaceView, eq(workspaceView.id, cluster.workspaceId))
    .innerJoin(organizationBilling, eq(organizationBilling.organizationId, workspaceView.organizationId))
    .leftJoin(spec, and(eq(spec.clusterId, cluster.id), eq(spec.role, instance.role)))
    .where(
      and(
        isNotNull(instance.launchedAt),
        lt(instance.launchedAt, to),
        or(isNull(sql`${ended}`), gte(sql`${ended}`, from)),
      ),
    );
  const rows: (typeof usageMinutes.$inferInsert)[] = [];
  for (const r of ran) {
    const start = Math.max(floorTo(r.instance.launchedAt!.getTime(), unit), from.getTime());
    const end = r.ended ? Math.min(new Date(r.ended).getTime(), to.getTime()) : to.getTime();
    const machine = {
      instanceType: r.spec?.instanceType ?? r.instance.instanceType,
      cores: r.spec?.cores ?? 1,
      memoryMib: r.spec?.memoryMib ?? 1024,
      gpus: r.spec?.gpus ?? 0,
    };
    const price = hourlyPrice(machine, ctx.rates, r.creditValue);
    for (let m = start; m < end; m += unit)
      rows.push({
        minute: new Date(m),
        instanceId: r.instance.id,
        clusterId: r.cluster.id,
        clusterName: r.cluster.name,
        workspaceId: r.cluster.workspaceId,
        organizationId: r.organizationId,
        userId: r.cluster.creatorId,
        clusterType: clusterType(r.cluster.tags, r.batch),
        backendType: r.cluster.backendType,
        instanceType: machine.instanceType,
        zone: String(r.cluster.options.zone ?? r.cluster.options.region ?? ''),
        cores: machine.cores,
        memoryMib: machine.memoryMib,
        gpus: machine.gpus,
        gpuType: machine.gpus ? String(r.cluster.options.gpu_type ?? 'gpu') : '',
        tags: r.cluster.tags,
        // The minute's place in its hour: 60 of them add up to the hourly price exactly.
        ...minutePrice(price, Math.floor(m / unit) % 60),
      });
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await tx
        .insert(usageMinutes)
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflictDoNothing();
    await rollUp(tx, from, to);
  });
  return rows.length;
}

/**
 * Rebuilds the hourly rollup of every hour touching [from, to) from the minutes. Hours and days
 * are UTC's whatever the database session's time zone (one offset by half an hour would split
 * hours, any other would move days).
 */
export async function rollUp(tx: Db, from: Date, to: Date): Promise<void> {
  const first = new Date(floorTo(from.getTime(), 3_600_000));
  const last = new Date(floorTo(to.getTime() - 1, 3_600_000) + 3_600_000);
  await tx.delete(usageHourly).where(and(gte(usageHourly.hour, first), lt(usageHourly.hour, last)));
  await tx.execute(sql`
    insert into usage_hourly (hour, cluster_id, cluster_name, account_id, organization_id, user_id, cluster_type,
      backend_type, instance_type, zone, gpu_type, tags, instance_minutes, core_minutes, micro_credits,
      micro_cloud_cost, micro_cumulus_cost)
    select date_trunc('hour', minute, 'UTC'), cluster_id, max(cluster_name), max(account_id), max(organization_id),
      max(user_id), max(cluster_type), max(backend_type), instance_type, zone, gpu_type,
      (array_agg(tags))[1], count(*), sum(cores), sum(micro_credits), sum(micro_cloud_cost), sum(micro_cumulus_cost)
    from usage_minutes
    where minute >= ${first.toISOString()} and minute < ${last.toISOString()}
    group by 1, cluster_id, instance_type, zone, gpu_type`);
  await rollUpDays(tx, first, last);
}

const DAY = 86_400_000;

/** Rebuilds the daily rollup of every day touching [from, to) from the hourly one. */
async function rollUpDays(tx: Db, from: Date, to: Date): Promise<void> {
  const first = new Date(floorTo(from.getTime(), DAY));
  const last = new Date(floorTo(to.getTime() - 1, DAY) + DAY);
  await tx.delete(usageDaily).where(and(gte(usageDaily.day, first), lt(usageDaily.day, last)));
  await tx.execute(sql`
    insert into usage_daily (day, cluster_id, cluster_name, account_id, organization_id, user_id, cluster_type,
      backend_type, instance_type, zone, gpu_type, tags, instance_minutes, core_minutes, micro_credits,
      micro_cloud_cost, micro_cumulus_cost)
    select date_trunc('day', hour, 'UTC'), cluster_id, max(cluster_name), max(account_id), max(organization_id),
      max(user_id), max(cluster_type), max(backend_type), instance_type, zone, gpu_type,
      (array_agg(tags))[1], sum(instance_minutes), sum(core_minutes), sum(micro_credits), sum(micro_cloud_cost),
      sum(micro_cumulus_cost)
    from usage_hourly
    where hour >= ${first.toISOString()} and hour < ${last.toISOString()}
    group by 1, cluster_id, instance_type, zone, gpu_type`);
}

/** Raw minutes older than the retention go (the hourly rollup keeps what usage queries need). */
export async function pruneUsage(db: Db, retentionMs: number): Promise<void> {
  await db.delete(usageMinutes).where(lt(usageMinutes.minute, new Date(Date.now() - retentionMs)));
}
