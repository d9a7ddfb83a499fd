import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type Plan, plans } from '../../../db/schema/index.js';
import { type PlanLimits, TIER_LIMITS, type Tier } from './tiers.js';

const activeOf = (organizationId: number) =>
  and(eq(plans.organizationId, organizationId), isNull(plans.ended));

/**
 * The organization's active plan. Every organization gets one when it is made (and the
 * migration gave existing ones theirs); one made some other way starts on the free tier here.
 */
export async function activePlan(db: Db, organizationId: number): Promise<Plan> {
  const [found] = await db.select().from(plans).where(activeOf(organizationId));
  if (found) return found;
  await db
    .insert(plans)
    .values({ organizationId, tier: 'free', ...TIER_LIMITS.free })
    .onConflictDoNothing();
  const [made] = await db.select().from(plans).where(activeOf(organizationId));
  return made!;
}

/** The active plans of several organizations (all when `organizationIds` is omitted), by organization id. */
export async function activePlans(db: Db, organizationIds?: number[]): Promise<Map<number, Plan>> {
  const rows = await db
    .select()
    .from(plans)
    .where(
      and(isNull(plans.ended), organizationIds ? inArray(plans.organizationId, organizationIds) : undefined),
    );
  const found = new Map(rows.map((p) => [p.organizationId, p]));
  for (const id of organizationIds ?? []) if (!found.has(id)) found.set(id, await activePlan(db, id));
  return found;
}

/** Starts an organization's first plan (inside the transaction that makes the organization). */
export async function startFirstPlan(tx: Db, organizationId: number, tier: Tier = 'free'): Promise<void> {
  await tx.insert(plans).values({ organizationId, tier, ...TIER_LIMITS[tier] });
}

/**
 * A plan change: ends the active plan and starts one of `tier`. Limits the organization's
 * admins set themselves (credit and spend caps) carry over; the tier's own limits replace the rest.
 */
export async function changeTier(tx: Db, organizationId: number, tier: Tier): Promise<Plan> {
  const current = await activePlan(tx, organizationId);
  await tx.update(plans).set({ ended: new Date() }).where(eq(plans.id, current.id));
  const limits: PlanLimits = {
    ...TIER_LIMITS[tier],
    organizationCreditLimit: current.organizationCreditLimit,
    dollarsSpendLimitMicroUsd: current.dollarsSpendLimitMicroUsd,
  };
  const [next] = await tx
    .insert(plans)
    .values({ organizationId, tier, ...limits })
    .returning();
  return next!;
}

/** Changes limits of the active plan in place. */
export async function updatePlan(
  tx: Db,
  organizationId: number,
  changes: Partial<PlanLimits> & { tier?: Tier },
): Promise<Plan> {
  const current = await activePlan(tx, organizationId);
  if (Object.keys(changes).length === 0) return current;
  const [updated] = await tx.update(plans).set(changes).where(eq(plans.id, current.id)).returning();
  return updated!;
}
