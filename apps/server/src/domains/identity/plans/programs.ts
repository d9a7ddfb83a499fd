import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type Program, programs } from '../../../db/schema/index.js';
import { type ProgramLimits, TIER_LIMITS, type Tier } from './tiers.js';

const activeOf = (organizationId: number) =>
  and(eq(programs.organizationId, organizationId), isNull(programs.ended));

/**
 * The organization's active program. Every organization gets one when it is made (and the
 * migration gave existing ones theirs); one made some other way starts on the free tier here.
 */
export async function activeProgram(db: Db, organizationId: number): Promise<Program> {
  const [found] = await db.select().from(programs).where(activeOf(organizationId));
  if (found) return found;
  await db
    .insert(programs)
    .values({ organizationId, tier: 'free', ...TIER_LIMITS.free })
    .onConflictDoNothing();
  const [made] = await db.select().from(programs).where(activeOf(organizationId));
  return made!;
}

/** The active programs of several organizations (all when `organizationIds` is omitted), by organization id. */
export async function activePrograms(db: Db, organizationIds?: number[]): Promise<Map<number, Program>> {
  const rows = await db
    .select()
    .from(programs)
    .where(
      and(
        isNull(programs.ended),
        organizationIds ? inArray(programs.organizationId, organizationIds) : undefined,
      ),
    );
  const found = new Map(rows.map((p) => [p.organizationId, p]));
  for (const id of organizationIds ?? []) if (!found.has(id)) found.set(id, await activeProgram(db, id));
  return found;
}

/** Starts an organization's first program (inside the transaction that makes the organization). */
export async function startFirstProgram(tx: Db, organizationId: number, tier: Tier = 'free'): Promise<void> {
  await tx.insert(programs).values({ organizationId, tier, ...TIER_LIMITS[tier] });
}

/**
 * A plan change: ends the active program and starts one of `tier`. Limits the organization's
 * admins set themselves (credit and spend caps) carry over; the tier's own limits replace the rest.
 */
export async function changeTier(tx: Db, organizationId: number, tier: Tier): Promise<Program> {
  const current = await activeProgram(tx, organizationId);
  await tx.update(programs).set({ ended: new Date() }).where(eq(programs.id, current.id));
  const limits: ProgramLimits = {
    ...TIER_LIMITS[tier],
    organizationCreditLimit: current.organizationCreditLimit,
    dollarsSpendLimitMicroUsd: current.dollarsSpendLimitMicroUsd,
  };
  const [next] = await tx
    .insert(programs)
    .values({ organizationId, tier, ...limits })
    .returning();
  return next!;
}

/** The tier's gates (console.md section 3), as the organization and the program answer them. */
export const planGatesOf = (p: Program) => ({
  spot_usage_limit: p.spotUsageLimit,
  arm_usage_limit: p.armUsageLimit,
  can_use_custom_networking: p.canUseCustomNetworking,
  can_use_private_pypi: p.canUsePrivatePypi,
  billing_periods: p.billingPeriods,
});

/** Changes limits of the active program in place. */
export async function updateProgram(
  tx: Db,
  organizationId: number,
  changes: Partial<ProgramLimits> & { tier?: Tier },
): Promise<Program> {
  const current = await activeProgram(tx, organizationId);
  if (Object.keys(changes).length === 0) return current;
  const [updated] = await tx.update(programs).set(changes).where(eq(programs.id, current.id)).returning();
  return updated!;
}
