import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type Plan, usageHourly, type Workspace } from '../../../db/schema/index.js';
import { workspacesOfOrganization } from '../../identity/index.js';
import { covers, monthlyUsage, overruns, sumOf } from '../usage/limits.js';
import { cents, MICRO, percentFloor, toMicro } from '../usage/micro.js';

/** A limit in whole credits (or null) in micro-credits. */
const microOf = (limit: number | null) => (limit === null ? null : BigInt(limit) * MICRO);

/**
 * This month's credits and spend of an organization against its plan (`pricing/usage/{org}`):
 * percentages floored to two decimals, so short of a limit never reads 100%.
 */
export async function planConsumption(db: Db, plan: Plan) {
  const used = await monthlyUsage(db, [plan.organizationId]);
  const microCredits = sumOf(used, () => true);
  const microCost = sumOf(used, () => true, 'cost');
  return {
    credits_used: cents(microCredits),
    dollars_spent: cents(microCost),
    program_credits_usage_percent: percentFloor(microCredits, microOf(plan.organizationCreditLimit)),
    program_dollars_spend_usage_percent: percentFloor(
      microCost,
      plan.dollarsSpendLimitMicroUsd === null ? null : BigInt(plan.dollarsSpendLimitMicroUsd),
    ),
    credit_allotment_usage_percent: percentFloor(microCredits, microOf(plan.creditAllotment || null)),
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
  const mine = sumOf(used, (r) => r.user === userId);
  const all = sumOf(used, () => true);
  return {
    credits_used: cents(mine),
    workspace_credits_used: cents(all),
    workspace_credits_user_usage_percent: percentFloor(mine, microOf(memberCreditLimit)),
    workspace_credits_usage_percent: percentFloor(all, microOf(workspace.creditLimit)),
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
  const names = await workspacesOfOrganization(db, organizationId);
  const per = rows.map((r) => {
    const ws = names.find((n) => n.id === r.ws);
    return {
      account_id: r.ws,
      account_slug: ws?.slug ?? null,
      account_name: ws?.name ?? `workspace ${r.ws}`,
      credits: cents(toMicro(r.credits)),
      cumulus_cost: cents(toMicro(r.cost)),
      approx_cloud_cost: cents(toMicro(r.cloud)),
      instance_minutes: Number(r.minutes),
    };
  });
  const total = (of: 'credits' | 'cost' | 'cloud' | 'minutes') =>
    rows.reduce((t, r) => t + toMicro(r[of]), 0n);
  return {
    credits: cents(total('credits')),
    cumulus_cost: cents(total('cost')),
    approx_cloud_cost: cents(total('cloud')),
    instance_minutes: Number(total('minutes')),
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
