import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { meters, organizationBilling } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError } from '../../../http/errors.js';
import { type LoopDomain, loopRows } from '../../../loops/runner.js';
import { desire, liveClusterView } from '../../clusters/index.js';
import { memberLimitView, organizationView, userView, workspaceView } from '../../identity/index.js';
import { monthStart, renewDate } from '../plans/periods.js';
import { activePlans } from '../plans/service.js';
import { recordBillingEvent } from '../pricing/events.js';
import { cents, MICRO, toMicro } from './micro.js';

/**
 * Limits that act. Every round (a minute) the month's metered usage is held against each limit:
 * a workspace's monthly credit limit, a member's credit limit in a workspace, the organization's
 * credits and its dollar spend limit. What has reached 100% has its running clusters stopped,
 * with a reason naming the limit, and new clusters refused. Limits reset on the first day of the
 * month (UTC); null is no limit, 0 allows nothing.
 */
export interface Overrun {
  kind: 'workspace' | 'member' | 'organization' | 'spend';
  organizationId: number;
  workspaceId?: number;
  userId?: number;
  /** Whether running clusters stop (a spend limit may only refuse new ones). */
  stops: boolean;
  /** "workspace etl reached its monthly credit limit (100 credits)". */
  what: string;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Micro-credits and micro-dollars used this month, per workspace and user (what every limit sums). */
export async function monthlyUsage(db: Db, organizationIds?: number[]) {
  const result = await db.execute(sql`
    select organization_id as org, account_id as ws, user_id as "user",
      sum(micro_credits)::bigint as credits, sum(micro_cumulus_cost)::bigint as cost
    from usage_hourly
    where hour >= ${monthStart().toISOString()}
      ${
        organizationIds
          ? sql`and organization_id in (${sql.join(
              organizationIds.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql``
      }
    group by 1, 2, 3`);
  return rowsOf<{ org: number; ws: number; user: number | null; credits: string; cost: string }>(result).map(
    (r) => ({ org: r.org, ws: r.ws, user: r.user, credits: toMicro(r.credits), cost: toMicro(r.cost) }),
  );
}
export type MonthlyUsage = Awaited<ReturnType<typeof monthlyUsage>>;

/** Micro-credits (or micro-dollars) used by the rows `keep` selects. */
export const sumOf = (
  used: MonthlyUsage,
  keep: (r: MonthlyUsage[number]) => boolean,
  of: 'credits' | 'cost' = 'credits',
) => used.filter(keep).reduce((total, r) => total + r[of], 0n);

/** Whole credits (a limit) in micro-credits. */
const micro = (n: number | bigint) => BigInt(n) * MICRO;

/** Every limit at or over 100% this month (of the given organizations, else all). */
export async function overruns(db: Db, organizationIds?: number[]): Promise<Overrun[]> {
  const used = await monthlyUsage(db, organizationIds);
  const orgFilter = organizationIds ? inArray(organizationView.id, organizationIds) : undefined;
  const wsFilter = organizationIds ? inArray(workspaceView.organizationId, organizationIds) : undefined;
  const [orgs, plans, spaces, members] = await Promise.all([
    db
      .select({
        id: organizationView.id,
        name: organizationView.name,
        spendLimitShouldStopInstances: organizationBilling.spendLimitShouldStopInstances,
      })
      .from(organizationView)
      .innerJoin(organizationBilling, eq(organizationBilling.organizationId, organizationView.id))
      .where(orgFilter),
    activePlans(db, organizationIds),
    db
      .select({
        id: workspaceView.id,
        name: workspaceView.name,
        org: workspaceView.organizationId,
        limit: workspaceView.creditLimit,
      })
      .from(workspaceView)
      .where(wsFilter),
    db
      .select({
        ws: memberLimitView.workspaceId,
        user: memberLimitView.userId,
        limit: memberLimitView.creditLimit,
        username: userView.username,
        workspace: workspaceView.name,
        org: workspaceView.organizationId,
      })
      .from(memberLimitView)
      .innerJoin(userView, eq(userView.id, memberLimitView.userId))
      .innerJoin(workspaceView, eq(workspaceView.id, memberLimitView.workspaceId))
      .where(wsFilter),
  ]);
  const sum = (keep: (r: MonthlyUsage[number]) => boolean, of: 'credits' | 'cost' = 'credits') =>
    sumOf(used, keep, of);
  const found: Overrun[] = [];
  for (const org of orgs) {
    const plan = plans.get(org.id);
    const creditLimit = plan?.organizationCreditLimit ?? null;
    const spendLimit = plan?.dollarsSpendLimitMicroUsd ?? null;
    if (creditLimit !== null && sum((r) => r.org === org.id) >= micro(creditLimit))
      found.push({
        kind: 'organization',
        organizationId: org.id,
        stops: true,
        what: `organization ${org.name} used its ${creditLimit} monthly credits`,
      });
    if (spendLimit !== null && sum((r) => r.org === org.id, 'cost') >= BigInt(spendLimit))
      found.push({
        kind: 'spend',
        organizationId: org.id,
        stops: org.spendLimitShouldStopInstances,
        what: `organization ${org.name} reached its spend limit of $${cents(spendLimit).toFixed(2)}`,
      });
  }
  for (const ws of spaces)
    if (ws.limit !== null && sum((r) => r.ws === ws.id) >= micro(ws.limit))
      found.push({
        kind: 'workspace',
        organizationId: ws.org,
        workspaceId: ws.id,
        stops: true,
        what: `workspace ${ws.name} reached its monthly credit limit (${ws.limit} credits)`,
      });
  for (const m of members) {
    if (m.limit === null) continue;
    const usedByMember = sum((r) => r.ws === m.ws && r.user === m.user);
    if (usedByMember >= micro(m.limit))
      found.push({
        kind: 'member',
        organizationId: m.org,
        workspaceId: m.ws,
        userId: m.user,
        stops: true,
        what: `${m.username} reached their monthly credit limit in ${m.workspace} (${m.limit} credits, ${cents(usedByMember)} used)`,
      });
  }
  return found;
}

/** Whether an overrun covers clusters of this workspace (and creator). */
export const covers = (o: Overrun, organizationId: number, workspaceId: number, userId: number | null) =>
  o.organizationId === organizationId &&
  (o.workspaceId === undefined || o.workspaceId === workspaceId) &&
  (o.userId === undefined || o.userId === userId);

/** Refuses a new cluster (or a resume) in a workspace whose limits, or whose creator's, are reached. */
export async function assertWithinCreditLimits(
  db: Db,
  workspace: { id: number; organizationId: number },
  userId: number,
): Promise<void> {
  const over = (await overruns(db, [workspace.organizationId])).find((o) =>
    covers(o, workspace.organizationId, workspace.id, userId),
  );
  if (!over) return;
  const message = `New clusters are refused: ${over.what}. Limits reset on ${renewDate()}; an admin can raise them.`;
  throw new ApiError(403, { detail: message, message, code: 'CREDIT_LIMIT_REACHED', limit: over.kind });
}

/** Stops the running clusters that reached limits cover; answers how many it asked to stop. */
export async function enforceLimits(deps: Pick<Deps, 'db' | 'loops'>): Promise<number> {
  const stopping = (await overruns(deps.db)).filter((o) => o.stops);
  if (stopping.length === 0) return 0;
  const live = await deps.db
    .select({
      id: liveClusterView.id,
      ws: liveClusterView.workspaceId,
      creator: liveClusterView.creatorId,
      org: workspaceView.organizationId,
    })
    .from(liveClusterView)
    .innerJoin(workspaceView, eq(workspaceView.id, liveClusterView.workspaceId))
    .where(eq(liveClusterView.desiredState, 'ready'));
  let n = 0;
  for (const cluster of live) {
    const over = stopping.find((o) => covers(o, cluster.org, cluster.ws, cluster.creator));
    if (!over) continue;
    const reason = `Stopped because ${over.what}; limits reset on ${renewDate()}.`;
    await desire(deps, async (tx, want) => {
      await want.stop(cluster.id, 'stopped', reason);
      await recordBillingEvent(tx, {
        organizationId: cluster.org,
        workspaceId: cluster.ws,
        userId: cluster.creator,
        clusterId: cluster.id,
        kind: 'limit-reached',
        detail: reason,
        data: { limit: over.kind },
      });
    });
    n++;
  }
  return n;
}

/** The limits loop: the `limits` row of `meters`, leased, due every metering unit. */
export function limitsDomain(deps: Pick<Deps, 'db' | 'loops'>, everyMs: number): LoopDomain {
  return {
    name: 'limits',
    rows: { ...loopRows(meters), where: sql`${meters.name} = 'limits'` },
    reconcile: async () => {
      await enforceLimits(deps);
      return new Date(Date.now() + everyMs);
    },
    backoff: { initialMs: 5_000, capMs: 60_000 },
    intervalMs: Math.min(everyMs, 5_000),
    concurrency: 1,
  };
}
