import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type Program, usageHourly, type Workspace, workspaces } from '../../db/schema/index.js';
import { covers, credits, monthlyUsage, overruns } from '../usage/limits.js';

const MICRO = 1_000_000;

/**
 * How far `used` is through `limit`, in percent with two decimals; null without a limit. A limit
 * of 0 allows nothing, so it is reached at once.
 */
export function percentOf(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit <= 0) return 100;
  return Math.round((used / limit) * 10_000) / 100;
}

/** This month's credits and spend of an organization against its program (`pricing/usage/{org}`). */
export async function programConsumption(db: Db, program: Program) {
  const used = await monthlyUsage(db, [program.organizationId]);
  const microCredits = used.reduce((t, r) => t + r.credits, 0);
  const microCost = used.reduce((t, r) => t + r.cost, 0);
  return {
    credits_used: credits(microCredits),
    dollars_spent: Math.round(microCost / 10_000) / 100,
    program_credits_usage_percent: percentOf(microCredits / MICRO, program.organizationCreditLimit),
    program_dollars_spend_usage_percent: percentOf(
      microCost / MICRO,
      program.dollarsSpendLimitMicroUsd === null ? null : program.dollarsSpendLimitMicroUsd / MICRO,
    ),
    credit_allotment_usage_percent: percentOf(microCredits / MICRO, program.creditAllotment || null),
  };
}

/** This month's credits of a workspace and of one member in it, against their limits. */
export async function workspaceConsumption(
  db: Db,
  workspace: Workspace,
  userId: number,
  memberCreditLimit: number | null,
) {
  const used = (await monthlyUsage(db, [workspace.organizationId])).filter((r) => r.ws === workspace.id);
  const mine = used.filter((r) => r.user === userId).reduce((t, r) => t + r.credits, 0);
  const all = used.reduce((t, r) => t + r.credits, 0);
  return {
    credits_used: credits(mine),
    workspace_credits_used: credits(all),
    workspace_credits_user_usage_percent: percentOf(mine / MICRO, memberCreditLimit),
    workspace_credits_usage_percent: percentOf(all / MICRO, workspace.creditLimit),
  };
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** An organization's usage between two instants, in total and per workspace (from the hourly rollup). */
export async function organizationUsage(db: Db, organizationId: number, from: Date, until: Date) {
  const result = await db.execute(sql`
    select ${usageHourly.workspaceId} as ws, sum(${usageHourly.microCredits})::bigint as credits,
      sum(${usageHourly.microCumulusCost})::bigint as cost, sum(${usageHourly.microCloudCost})::bigint as cloud,
      sum(${usageHourly.instanceMinutes})::bigint as minutes
    from ${usageHourly}
    where ${and(
      eq(usageHourly.organizationId, organizationId),
      gte(usageHourly.hour, from),
      lt(usageHourly.hour, until),
    )}
    group by 1`);
  const rows = rowsOf<{ ws: number; credits: string; cost: string; cloud: string; minutes: string }>(result);
  const names = await db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.organizationId, organizationId));
  const dollars = (micro: number) => Math.round(micro / 10_000) / 100;
  const per = rows.map((r) => {
    const ws = names.find((n) => n.id === r.ws);
    return {
      account_id: r.ws,
      account_slug: ws?.slug ?? null,
      account_name: ws?.name ?? `workspace ${r.ws}`,
      credits: credits(Number(r.credits)),
      cumulus_cost: dollars(Number(r.cost)),
      approx_cloud_cost: dollars(Number(r.cloud)),
      instance_minutes: Number(r.minutes),
    };
  });
  const total = (of: 'credits' | 'cost' | 'cloud' | 'minutes') => rows.reduce((t, r) => t + Number(r[of]), 0);
  return {
    credits: credits(total('credits')),
    cumulus_cost: dollars(total('cost')),
    approx_cloud_cost: dollars(total('cloud')),
    instance_minutes: total('minutes'),
    workspaces: per.sort((a, b) => b.credits - a.credits),
  };
}

/** `user/account/{ws}/usage`: this month's credits of the caller and of the workspace, and whether they may start clusters. */
export async function workspaceUsage(db: Db, workspace: Workspace, userId: number) {
  const used = await workspaceConsumption(db, workspace, userId, null);
  const blocked = (await overruns(db, [workspace.organizationId])).some((o) =>
    covers(o, workspace.organizationId, workspace.id, userId),
  );
  return {
    credits_used: used.credits_used,
    workspace_credits_used: used.workspace_credits_used,
    has_quota: !blocked,
  };
}
